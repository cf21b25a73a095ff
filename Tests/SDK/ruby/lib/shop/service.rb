# frozen_string_literal: true

require "json"

module Shop
  # The service's operations, each failing in a way of its own, with per-event data in its
  # messages (ids, users, paths, inputs) that grouping must ignore.
  module Service
    module_function

    def post_token(root)
      raise App::NetworkError.new(root, code: root == "timeout" ? 8 : 29)
    end

    def get_token(api_code, root)
      post_token(root)
    rescue App::NetworkError
      raise App::APIError.new("getTokenFailed", code: api_code)
    end

    def log_in(api_code, root)
      get_token(api_code, root)
    rescue App::APIError
      raise App::LogicError.new("loginFailed", code: 43)
    end

    def show_login(api_code: 7, root: "timeout")
      log_in(api_code, root)
    rescue App::LogicError
      raise App::UserError.new("connectionIssue", code: 14)
    end

    def write_draft(id)
      raise App::StorageError.new("writeFailed for draft #{id}", code: 5)
    end

    # Two operations that interpolate the same cause's message into a RuntimeError of their own.
    def save_draft(id)
      write_draft(id)
    rescue App::StorageError => e
      raise "saving draft failed: #{e.message}"
    end

    def upload_avatar(user)
      write_draft("avatar-#{user}")
    rescue App::StorageError => e
      raise "uploading avatar failed: #{e.message}"
    end

    def import_feed(n)
      JSON.parse("{\"items\": [#{n}, oops]}")
    rescue JSON::ParserError => e
      raise App::ImportError, "import of feed #{n} failed: #{e.message}"
    end

    def load_settings(n)
      File.read("/nonexistent/shop/settings-#{n}.yml")
    rescue Errno::ENOENT
      raise App::ConfigError, "cannot load settings"
    end

    def cart_total(cart)
      cart[:items].fetch(:total)
    end

    def parse_quantity(input)
      Integer(input)
    end

    def find_user(id)
      { admin: 1 }.fetch(:"user_#{id}")
    end

    # A cause that was never raised: sentry-ruby 5.3 writes the outermost error in its place.
    def check_out(order)
      raise App::CheckoutError, "checkout of order #{order} failed", cause: App::PaymentError.new("cardDeclined", code: 51)
    end

    def run_worker(n)
      raise App::WorkerError, "worker #{n} lost its queue"
    end

    # Raised at one place, with words of the run in it: a payment method and a tenant.
    def charge(tenant, method)
      raise "payment with #{method} failed for tenant #{tenant}"
    end
  end
end
