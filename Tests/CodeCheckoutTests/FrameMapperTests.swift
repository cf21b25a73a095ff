import CodeCheckout
import Testing
import TriageModel

/// Frames as each SDK writes them, mapped to the files of a checkout.
@Suite struct FrameMapperTests {
    let files = ["pyshop/billing.py", "pyshop/__init__.py", "pyshop/catalog/__init__.py", "python_shop.py", "go/main.go",
                 "go/billing/amount.go", "lib/shop/service.rb", "bin/shop", "app/models.py", "src/app/billing.py",
                 "web/a/util.js", "web/b/util.js"]

    func map(_ frame: EventFrame, maps: [PathMapping] = []) -> FrameMapper.Mapping {
        FrameMapper(files: files, pathMaps: maps).map(frame)
    }

    @Test func pythonsRelativeFilenameAsItStands() {
        // sentry-python: filename relative to the sys.path entry, abs_path absolute, module dotted.
        let frame = EventFrame(function: "validate", module: "pyshop.billing", file: "pyshop/billing.py", line: 6,
                               absPath: "/srv/deploy/releases/42/pyshop/billing.py")
        #expect(map(frame) == .file("pyshop/billing.py", via: "filename"))
    }

    @Test func anAbsolutePathByItsLongestEnding() {
        // sentry-go: no filename, abs_path on the build machine, module the package.
        let frame = EventFrame(function: "main", module: "main", file: "/home/ci/src/shop/go/main.go", line: 94,
                               absPath: "/home/ci/src/shop/go/main.go")
        #expect(map(frame) == .file("go/main.go", via: "abs_path"))
        let ruby = EventFrame(function: "post_token", file: "lib/shop/service.rb", line: 12, absPath: "/app/lib/shop/service.rb")
        #expect(map(ruby) == .file("lib/shop/service.rb", via: "filename"))
    }

    @Test func aModulesPathWhereTheFileSaysTooLittle() {
        let python = EventFrame(function: "load", module: "pyshop.catalog", file: "__init__.py", line: 3)
        #expect(map(python) == .file("pyshop/catalog/__init__.py", via: "module"))
        let go = EventFrame(function: "Parse", module: "example.com/shop/go/billing", file: "amount.go", line: 12)
        #expect(map(go) == .file("go/billing/amount.go", via: "module"))
    }

    @Test func oneSharedNameIsNotEnough() {
        // A library's models.py is not the app's app/models.py.
        let library = EventFrame(function: "save", module: "django.db.models", file: "django/db/models.py", line: 700,
                                 inApp: false, absPath: "/usr/lib/python3/dist-packages/django/db/models.py")
        guard case .none(let why) = map(library) else { Issue.record("mapped \(map(library))"); return }
        #expect(why.contains("is no file of the checkout"))
        // A file at the root is its whole path: one name is enough.
        #expect(map(EventFrame(function: "main", file: "/opt/x/python_shop.py", absPath: "/opt/x/python_shop.py")) == .file("python_shop.py", via: "abs_path"))
    }

    @Test func twoFilesThatFitAsWellAreAmbiguous() {
        let frame = EventFrame(function: "f", file: "/srv/static/util.js", absPath: "/srv/static/util.js")
        guard case .none(let why) = map(frame) else { Issue.record("mapped"); return }
        #expect(why.contains("fits") || why.contains("is no file"))
        let deeper = EventFrame(function: "f", file: "/srv/www/a/util.js", absPath: "/srv/www/a/util.js")
        #expect(map(deeper) == .file("web/a/util.js", via: "abs_path"))
        let both = EventFrame(function: "f", file: "/srv/util.js", absPath: "/srv/util.js")
        #expect(map(both).path == nil)
    }

    @Test func thePathMapFirst() throws {
        let map1 = try PathMapping.parse("/srv/app/=src/app/").get()
        let frame = EventFrame(function: "charge", file: "billing.py", absPath: "/srv/app/billing.py")
        #expect(map(frame, maps: [map1]) == .file("src/app/billing.py", via: "--path-map /srv/app/=src/app/"))
        // A map to the root.
        let root = try PathMapping.parse("/home/ci/src/shop/=").get()
        #expect(root.apply("/home/ci/src/shop/go/main.go") == "go/main.go")
        #expect(try PathMapping.parse("/srv/app=src").get().apply("/srv/app/billing.py") == "src/billing.py")
    }

    @Test func pathMapsThatAreNotOneAreRefusedWithWhy() {
        #expect(throws: PathMappingError.self) { try PathMapping.parse("src").get() }
        #expect(throws: PathMappingError.self) { try PathMapping.parse("=src/").get() }
        #expect(throws: PathMappingError.self) { try PathMapping.parse("/srv/=../etc/").get() }
        #expect(throws: PathMappingError.self) { try PathMapping.parse("/srv/=/etc/").get() }
        #expect(PathMapping.split(PathMapping.joined([PathMapping(from: "/a/", to: "b/"), PathMapping(from: "C:\\x\\", to: "")])) ==
                [PathMapping(from: "/a/", to: "b/"), PathMapping(from: "C:\\x\\", to: "")])
    }

    @Test func aFrameThatNamesNoFileSaysSo() {
        guard case .none(let why) = map(EventFrame(function: "lambda")) else { Issue.record("mapped"); return }
        #expect(why == "the frame names no file")
        let windows = EventFrame(function: "f", file: "C:\\build\\shop\\go\\billing\\amount.go")
        #expect(map(windows) == .file("go/billing/amount.go", via: "filename"))
    }
}
