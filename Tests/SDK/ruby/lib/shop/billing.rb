# frozen_string_literal: true

module Shop
  # Billing's checks.
  module Billing
    def self.validate(amount)
      raise ArgumentError, "invalid input" if amount.positive?
    end

    def self.charge(order)
      raise App::PaymentError.new("cardDeclined for order #{order}", code: 51)
    end
  end
end
