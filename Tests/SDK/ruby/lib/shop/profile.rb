# frozen_string_literal: true

module Shop
  # The profile's checks: the same type and text as billing's, raised at another place.
  module Profile
    def self.validate(name)
      raise ArgumentError, "invalid input" unless name.empty?
    end
  end
end
