# frozen_string_literal: true

# The shop's typed errors, one class per layer, each with its own code; a layer raises its error
# while rescuing the one below, so Ruby makes the lower error its `cause`.
module App
  # A layer's error: its case, its code, and the message that says both.
  class CodedError < StandardError
    attr_reader :code

    def initialize(kind, code:)
      @code = code
      super("#{kind} (code #{code})")
    end
  end

  class NetworkError < CodedError; end
  class APIError < CodedError; end
  class LogicError < CodedError; end
  class UserError < CodedError; end
  class StorageError < CodedError; end
  class PaymentError < CodedError; end

  # Errors that carry no code of their own.
  class ImportError < StandardError; end
  class ConfigError < StandardError; end
  class CheckoutError < StandardError; end
  class WorkerError < StandardError; end
end
