public import HearthCore
import HearthDAV
import HearthStore

// What sort of failure each of the engine's errors is (``ErrorCategory``), stated where the engine's errors are,
// so the server, or any surface, answers a new one without learning it elsewhere.

extension ChatError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .emptyMessage: ErrorCategory(.invalid, parameter: "text")
    case .alreadyGenerating: ErrorCategory(.conflict, code: "session_busy")
    case .modelNotReady: ErrorCategory(.unavailable, code: "model_not_loaded")
    case .notAnAnswer, .notAUserMessage: ErrorCategory(.invalid, parameter: "message")
    case .cannotContinue: ErrorCategory(.conflict, code: "cannot_continue")
    case .attachmentsNeedANewMessage, .unkeptTurnTakesOneMessage: ErrorCategory(.invalid, parameter: "attachments")
    }
  }
}

extension AttachmentError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .tooLarge: ErrorCategory(.tooLarge, code: "body_too_large")
    case .unsupported, .noText: ErrorCategory(.invalid, code: "invalid_file")
    case .notWaiting: ErrorCategory(.notFound)
    }
  }
}

extension ActionStateError: CategorizedError {
  public var category: ErrorCategory { ErrorCategory(.conflict, code: "action_state") }
}

extension RescheduleError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .overlapsNothing: ErrorCategory(.conflict, code: "nothing_to_reschedule")
    case .notOffered: ErrorCategory(.invalid, parameter: "start")
    }
  }
}

extension ActionReferenceError: CategorizedError {
  public var category: ErrorCategory { ErrorCategory(.notFound) }
}

extension NoticeError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .notFound: ErrorCategory(.notFound)
    case .alreadySettled: ErrorCategory(.conflict, code: "notice_settled")
    case .invalidSettings: ErrorCategory(.invalid)
    }
  }
}

extension ItemReferenceError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .notFound: ErrorCategory(.notFound)
    case .ambiguous: ErrorCategory(.conflict, code: "ambiguous_id")
    }
  }
}

extension EmbeddingError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .modelMissing: ErrorCategory(.unavailable, code: "embedding_model_missing")
    case .emptyInput: ErrorCategory(.invalid, parameter: "input")
    case .inputTooLong: ErrorCategory(.invalid, code: "context_length_exceeded", parameter: "input")
    }
  }
}

extension ModelRegistryError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .unknownModel, .notInstalled: ErrorCategory(.notFound, code: "model_not_found", parameter: "model")
    case .wrongRole: ErrorCategory(.invalid, code: "wrong_model_role", parameter: "model")
    case .invalid: ErrorCategory(.conflict, code: "model_unusable", parameter: "model")
    case .duplicate, .unreadableRegistry, .cannotWrite: ErrorCategory(.internalFailure, code: "model_registry_error")
    }
  }
}

extension RemoteError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .invalidSettings: ErrorCategory(.invalid, code: "invalid_remote_settings")
    case .unreachable, .server, .malformed: ErrorCategory(.upstream, code: "remote_failed")
    }
  }
}

extension ModelDownloadError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .invalidURL: ErrorCategory(.invalid, code: "invalid_url", parameter: "url")
    case .invalidHash: ErrorCategory(.invalid, code: "invalid_hash", parameter: "sha256")
    case .privateAddress, .unresolvable: ErrorCategory(.invalid, code: "url_not_allowed", parameter: "url")
    case .tooManyPulls: ErrorCategory(.tooMany, code: "too_many_downloads")
    case .invalidName, .httpStatus, .tooManyRedirects, .interrupted, .hashMismatch, .notAModel, .notEnoughSpace, .busy,
      .conflict, .registry, .storage, .outgrewSpace:
      ErrorCategory(.upstream, code: "download_failed")
    }
  }
}

extension ModelTooLargeError: CategorizedError {
  public var category: ErrorCategory { ErrorCategory(.unavailable, code: "model_too_large", parameter: "model") }
}

extension PinnedPromptError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .notFound: ErrorCategory(.notFound)
    case .duplicate: ErrorCategory(.conflict, code: "prompt_exists")
    case .emptyName: ErrorCategory(.invalid, parameter: "name")
    case .emptyText: ErrorCategory(.invalid, parameter: "text")
    case .tooLong(let field, _): ErrorCategory(.invalid, parameter: field)
    case .tooMany, .badPosition: ErrorCategory(.invalid)
    }
  }
}

extension HistoryImportError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .zipToolMissing: ErrorCategory(.unavailable, code: "unzip_missing")
    case .notInArchive, .unreadableArchive, .tooLarge: ErrorCategory(.invalid)
    }
  }
}

extension ReplyTargetError: CategorizedError {
  public var category: ErrorCategory { ErrorCategory(.invalid, parameter: "reply_to") }
}

extension ToolServerError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .unknownServer, .unknownTool: ErrorCategory(.notFound)
    case .duplicate: ErrorCategory(.conflict, code: "tool_server_exists")
    case .invalidName, .emptyCommand, .unsupportedURL: ErrorCategory(.invalid)
    case .noConnector, .unreachable, .exited, .timedOut, .refused: ErrorCategory(.upstream, code: "tool_server_failed")
    }
  }
}

extension AccountError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .notFound: ErrorCategory(.notFound)
    case .nameTaken: ErrorCategory(.conflict, code: "account_exists")
    case .badURL, .credentialsInURL: ErrorCategory(.invalid, parameter: "url")
    case .plainHTTP: ErrorCategory(.invalid, code: "plain_http", parameter: "url")
    case .password: ErrorCategory(.invalid, parameter: "password")
    case .server(_, .notAuthorized): ErrorCategory(.invalid, code: "account_refused", parameter: "password")
    case .server: ErrorCategory(.upstream, code: "account_server")
    }
  }
}

extension DeviceError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .wrongCode: ErrorCategory(.invalid, code: "wrong_pairing_code", parameter: "code")
    case .tooManyAttempts: ErrorCategory(.tooMany, code: "too_many_pairing_attempts")
    case .badName: ErrorCategory(.invalid, parameter: "name")
    case .badValidity: ErrorCategory(.invalid, parameter: "minutes")
    case .notFound: ErrorCategory(.notFound)
    case .ambiguous: ErrorCategory(.invalid)
    case .store(let error): error.category
    }
  }
}

extension PushError: CategorizedError {
  public var category: ErrorCategory {
    switch self {
    case .badEndpoint: ErrorCategory(.invalid, code: "bad_push_endpoint", parameter: "endpoint")
    case .badKeys: ErrorCategory(.invalid, parameter: "keys")
    case .expired: ErrorCategory(.invalid, parameter: "expiration_time")
    case .key: ErrorCategory(.internalFailure)
    case .store(let error): error.category
    }
  }
}
