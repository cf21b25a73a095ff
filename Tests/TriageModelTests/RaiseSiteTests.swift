import Testing
@testable import TriageModel

/// Where an error was raised: the innermost of the app's frames by module and function, and its
/// line; before schema 21, the whole path of the app's frames (`init(pathOf:)`).
@Suite struct RaiseSiteTests {
    typealias Frame = RaiseSite.Frame

    static let frames = [
        Frame(module: "threading", function: "run", contextLine: "self._target()", inApp: false),
        Frame(module: "shop.views", function: "checkout", contextLine: "    billing.validate(amount)", inApp: true),
        Frame(module: "shop.billing", function: "validate", contextLine: "        raise ValueError(\"invalid input\")  ", inApp: true),
        Frame(module: "json.decoder", function: "raw_decode", contextLine: "raise JSONDecodeError()", inApp: nil),
    ]

    @Test func theInnermostAppFrameAndItsRaisingLineMakeTheSite() {
        #expect(RaiseSite(frames: Self.frames)?.text == "shop.billing.validate | raise ValueError(\"invalid input\")")
    }

    /// One failure reached from a request handler and from a worker is raised at one place.
    @Test func thePathThatLedThereIsNotPartOfTheSite() {
        var fromWorker = Self.frames
        fromWorker[0] = Frame(module: "jobs.worker", function: "run", contextLine: "job()", inApp: true)
        fromWorker[1] = Frame(module: "jobs.retry", function: "again", contextLine: "    billing.validate(amount)", inApp: true)
        #expect(RaiseSite(frames: fromWorker) == RaiseSite(frames: Self.frames))
        #expect(RaiseSite(pathOf: fromWorker.filter { $0.inApp == true }) != RaiseSite(pathOf: Self.frames.filter { $0.inApp == true }))
    }

    @Test func beforeSchema18TheWholePathOfTheAppsFramesMadeTheSite() {
        #expect(RaiseSite(pathOf: Self.frames.filter { $0.inApp == true })?.text
                == "shop.views.checkout > shop.billing.validate | raise ValueError(\"invalid input\")")
    }

    @Test func withoutInAppMarksEveryFrameCounts() {
        let frames = Self.frames.map { Frame(module: $0.module, function: $0.function, contextLine: $0.contextLine) }
        #expect(RaiseSite(frames: frames)?.text == "json.decoder.raw_decode | raise JSONDecodeError()")
        #expect(RaiseSite(pathOf: frames)?.text.hasPrefix("threading.run > shop.views.checkout") == true)
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
