import Testing
@testable import TriageModel

/// Where an error was raised: the app's frames by module and function, and the raising line.
@Suite struct RaiseSiteTests {
    typealias Frame = RaiseSite.Frame

    static let frames = [
        Frame(module: "threading", function: "run", contextLine: "self._target()", inApp: false),
        Frame(module: "shop.views", function: "checkout", contextLine: "    billing.validate(amount)", inApp: true),
        Frame(module: "shop.billing", function: "validate", contextLine: "        raise ValueError(\"invalid input\")  ", inApp: true),
        Frame(module: "json.decoder", function: "raw_decode", contextLine: "raise JSONDecodeError()", inApp: nil),
    ]

    @Test func theAppsFramesAndItsRaisingLineMakeTheSite() {
        #expect(RaiseSite(frames: Self.frames)?.text == "shop.views.checkout > shop.billing.validate | raise ValueError(\"invalid input\")")
    }

    @Test func withoutInAppMarksEveryFrameCounts() {
        let frames = Self.frames.map { Frame(module: $0.module, function: $0.function, contextLine: $0.contextLine) }
        #expect(RaiseSite(frames: frames)?.text.hasPrefix("threading.run > shop.views.checkout") == true)
    }

    @Test func aFrameWithoutAModuleIsNamedByItsRelativeFileOrTheLastComponentOfAnAbsoluteOne() {
        let relative = RaiseSite(frames: [Frame(function: "save", file: "lib/shop/draft.rb", inApp: true)])
        #expect(relative?.text == "lib/shop/draft.rb.save")
        let here = RaiseSite(frames: [Frame(function: "save", file: "/home/ci/app/lib/draft.rb", inApp: true)])
        let there = RaiseSite(frames: [Frame(function: "save", file: "/srv/deploy/7/lib/draft.rb", inApp: true)])
        #expect(here == there && here?.text == "draft.rb.save")
    }

    @Test func theSameTypeAtAnotherPlaceGetsAnotherCode() {
        let billing = RaiseSite(frames: Self.frames)!
        var moved = Self.frames
        moved[2].module = "shop.profile"
        let profile = RaiseSite(frames: moved)!
        #expect(billing.code(domain: "ValueError") != profile.code(domain: "ValueError"))
        #expect(billing.code(domain: "ValueError") != billing.code(domain: "TypeError"))
        #expect(MessageTemplate.derivedRange.contains(billing.code(domain: "ValueError")))
    }

    @Test func framesThatNameNoPlaceMakeNoSite() {
        #expect(RaiseSite(frames: []) == nil)
        #expect(RaiseSite(frames: [Frame(contextLine: "x()")]) == nil)
    }
}
