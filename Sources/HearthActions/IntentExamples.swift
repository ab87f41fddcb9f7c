import HearthCore

/// Requests written for each intent, in the many ways people phrase them (questions and orders, lower case,
/// typos, indirect wishes), that ``IntentMatcher`` compares a new request with. They were written for this
/// table alone, never copied from a benchmark's cases, so a benchmark still measures requests the matcher has
/// not seen. A new phrasing that goes wrong is fixed by adding examples of its intent, never by a rule for it.
public enum IntentExamples {
  /// Each intent with its examples.
  public static let all: [(intent: RequestIntent, examples: [String])] = [
    (
      RequestIntent(.calendar, "create"),
      [
        "Put a dentist appointment in for Tuesday at 9", "schedule lunch with Marco on friday at noon",
        "add a team call tomorrow 3pm", "Book the car in for a service next Monday morning",
        "I've got a haircut on the 14th at 4, can you put it in", "set up a meeting with the landlord thursday at 10",
        "pencil in drinks with Sam saturday evening", "create an event called budget review on Wednesday at 2",
        "plan a picnic on Sunday at 1pm", "i need to see the doctor on monday at 8:30 add it",
        "Block out two hours on Friday afternoon for the tax return", "new event: yoga class, tuesday 6pm",
        "can you add parents evening to my calendar for the 3rd at 7", "make an appointment for the vet tomorrow at 11",
        "add dinner at Anna's place next friday 8pm", "schedule a 30 minute call with the bank at 10 tomorrow",
      ]
    ),
    (
      RequestIntent(.calendar, "query"),
      [
        "What's on my calendar tomorrow?", "what do i have on friday", "Anything planned for the weekend?",
        "show me my schedule for next week", "what does my monday look like", "whats happening on thursday",
        "When is my dentist appointment?", "do i have anything on the 12th", "what meetings have i got today",
        "Give me an overview of my week", "what's my agenda for today", "Where is the team lunch?",
        "when do I see the physio", "what am I doing this evening", "list my events for december",
        "what's coming up this week", "is there anything in my diary on saturday", "what time is the school concert",
      ]
    ),
    (
      RequestIntent(.calendar, "update"),
      [
        "Move the dentist to Thursday", "push my 3pm call to 4", "reschedule the team meeting to next monday",
        "can you shift lunch with Marco an hour later", "bring the budget review forward to 10am",
        "change the yoga class to 7pm", "make the doctor's appointment half an hour earlier",
        "postpone the picnic to sunday", "rename the team call to weekly sync", "move friday's dinner to saturday",
        "the haircut is now at 5, update it", "delay the landlord meeting by a day", "put the vet back to 2pm",
        "change where the board meeting is to room 4",
      ]
    ),
    (
      RequestIntent(.calendar, "delete"),
      [
        "Cancel the dentist", "delete my meeting with the landlord", "remove the picnic from my calendar",
        "call off drinks with Sam", "i'm not going to yoga on tuesday, take it out", "scrap the budget review",
        "get rid of the team call tomorrow", "the vet appointment is cancelled, delete it",
        "clear the haircut from my schedule", "drop the dinner on friday",
      ]
    ),
    (
      RequestIntent(.calendar, "free"),
      [
        "When am I free on Thursday?", "do i have a free hour tomorrow afternoon", "find me a gap for a call on monday",
        "am i available friday at 3", "when could I fit in a two hour block this week", "is my tuesday morning open",
        "whens the next free slot", "find time for a 30 minute meeting tomorrow", "am I busy on saturday evening",
      ]
    ),
    (
      RequestIntent(.reminder, "create"),
      [
        "Remind me to call mum tomorrow", "add milk to my to-do list",
        "i need to renew my passport, remind me next week",
        "don't let me forget to water the plants on sunday", "set a reminder to pay the rent on the 1st",
        "add a task: book flights", "remember to pick up the dry cleaning friday", "put 'email the plumber' on my list",
        "nudge me about the library books on monday", "todo: fix the bike",
        "make a reminder to take out the bins tonight",
        "I have to send the invoice by thursday", "add buy a birthday present for Lea to my todos",
      ]
    ),
    (
      RequestIntent(.reminder, "list"),
      [
        "What's on my to-do list?", "what do i still need to do", "show my reminders", "anything overdue?",
        "which tasks are due this week", "what have i not done yet", "list my open todos", "what's left on my list",
        "what am I supposed to do today", "do i have any reminders for tomorrow", "what's due soon",
        "what did I forget to do", "which of my reminders are late",
      ]
    ),
    (
      RequestIntent(.reminder, "complete"),
      [
        "I bought the milk", "mark call mum as done", "done with the passport renewal", "i paid the rent",
        "tick off water the plants", "finished the invoice, check it off", "I've picked up the dry cleaning",
        "the bins are out", "completed: book flights", "cross fix the bike off my list",
      ]
    ),
    (
      RequestIntent(.reminder, "delete"),
      [
        "delete the reminder about the library books", "remove milk from my list", "forget about fixing the bike",
        "i don't need the flights reminder any more, drop it", "take 'email the plumber' off my to-dos",
      ]
    ),
    (
      RequestIntent(.note, "create"),
      [
        "Make a note that the wifi password is on the router", "note: the plumber's name is Dave",
        "write down that Lea likes tulips", "save a note called packing list with passport, charger and socks",
        "jot this down: parking is on level 3", "create a note titled gift ideas: a scarf, a book",
        "remember that the spare key is under the pot", "take a note, the meeting notes go in the shared folder",
        "new note about the boiler: it needs a service in may", "keep a note that my shoe size is 42",
      ]
    ),
    (
      RequestIntent(.note, "search"),
      [
        "What did I write about the boiler?", "find my note on gift ideas", "what does my packing list say",
        "do i have any notes about the wifi", "search my notes for the plumber", "show me my notes about holidays",
        "what was in my note about the spare key", "look up what i noted about parking",
        "did i write anything down about tulips", "read me my shopping note",
      ]
    ),
    (
      RequestIntent(.note, "append"),
      [
        "add sunscreen to my packing list note", "append 'call back on monday' to the boiler note",
        "put a scarf on my gift ideas note", "add a line to the recipe note: use less salt",
      ]
    ),
    (
      RequestIntent(.note, "delete"),
      [
        "delete my note about the wifi", "remove the packing list note", "throw away the gift ideas note",
        "i don't need the boiler note, delete it",
      ]
    ),
    (
      RequestIntent(.habit, "create"),
      [
        "I want to start meditating every day", "track my running three times a week",
        "new habit: drink 8 glasses of water daily", "help me build a reading habit every evening",
        "start a habit of stretching each morning", "i'd like to practise guitar every day, track it",
      ]
    ),
    (
      RequestIntent(.habit, "log"),
      [
        "I went for a run today", "did my meditation", "check in for reading", "just finished my stretching",
        "practised guitar for 20 minutes", "drank my water today, log it", "I ran 5k this morning",
        "log today's yoga",
      ]
    ),
    (
      RequestIntent(.habit, "stats"),
      [
        "How is my running streak?", "how am i doing with meditation", "show my habit stats",
        "how many days in a row have I read", "what's my longest streak", "how often did i stretch this month",
        "am i keeping up with guitar practice",
      ]
    ),
    (
      RequestIntent(.contactsSearch),
      [
        "What's Priya's phone number?", "give me Marco's email", "where does Anna live", "when is Sam's birthday",
        "who does Lea work for", "what company is Tom at", "find the plumber's number", "how do i reach Dave",
        "what's the address of my sister", "show me the contact details for the dentist", "what's Olga's mobile",
        "what organisation is Priya with", "what do my notes on Marco's contact say", "tell me about Priya",
        "look up Anna in my contacts", "what is Tom's job title",
      ]
    ),
    (
      RequestIntent(.webSearch),
      [
        "Search the web for cheap flights to Lisbon", "look up the weather in Oslo online",
        "google how to descale a kettle", "find reviews of the new phone on the internet",
        "what's the latest news about the election, search online", "search online for vegan lasagne recipes",
      ]
    ),
    (
      .plain,
      [
        "What is the capital of Spain?", "write a haiku about autumn", "how do I plan my week better?",
        "tell me a joke", "what's 17 times 23", "explain photosynthesis simply", "hello!", "thanks, that's great",
        "how far is the moon", "give me tips for a job interview", "translate good morning into French",
        "what's a good name for a cat", "summarise the plot of Hamlet", "why is the sky blue",
        "how do i make pancakes", "what is a calendar year", "how can I remember things better",
        "what does a reminder app do", "write a short story about a dragon", "who wrote Pride and Prejudice",
        "recommend a book for a long flight", "how do I run a good meeting", "what time zone is Tokyo in",
        "how are you today", "what should I cook tonight", "is it healthy to run every day",
        "what can you do for me?", "tell me what you can help with", "what are you able to do",
        "how can you help me plan a holiday?", "what sort of things can you do",
      ]
    ),
  ]
}
