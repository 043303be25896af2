require 'json'
require_relative 'lib/auth'
module Billing
  class Auth < Base
    MAX = 3
    def login
      check
      Token.new
    end
    def self.build; end
  end
end
