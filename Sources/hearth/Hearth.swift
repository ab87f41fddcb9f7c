import ArgumentParser

@main
struct Hearth: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hearth",
    abstract: "A local-first personal assistant running GGUF models on this machine.",
    subcommands: [
      AskCommand.self, ChatCommand.self, ServeCommand.self, SessionsCommand.self, CalendarCommand.self,
      RemindersCommand.self, NotesCommand.self, HabitsCommand.self, ContactsCommand.self, ActionsCommand.self,
      IndexCommand.self, MemoryCommand.self, PersonasCommand.self, RecallCommand.self, TranscribeCommand.self,
      SayCommand.self,
      ModelsCommand.self,
      DoctorCommand.self,
      BriefingCommand.self, PromptsCommand.self, ImportCommand.self, NotificationsCommand.self, AutomationsCommand.self,
      MCPCommand.self, AccountsCommand.self, DevicesCommand.self, SyncCommand.self, BackupCommand.self,
      RestoreCommand.self,
      BenchCommand.self,
    ]
  )
}
