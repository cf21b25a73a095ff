import Foundation
import Testing

/// `errtriage view` and `report --view`, through the real binary on a copy of the sample store.
@Suite struct ViewCommandTests {
    @Test func aSavedViewIsListedOpenedByReportAndRemoved() throws {
        let cli = try CLI()
        let store = try SampleStore.copy(to: cli.folder)
        func run(_ arguments: [String]) throws -> CLI.Result {
            try cli.run(arguments + ["--store", store, "--now", SampleStore.end])
        }
        let query = "domain:TolokaBackendError os:17* has:complaints"
        let saved = try run(["view", "save", "backend-ios17", "--query", query, "--by", "complaints", "--window", "30d"])
        #expect(saved.status == 0, "\(saved.stderr)")
        let list = try run(["view", "list"])
        #expect(list.stdout == "backend-ios17  \(query)  (by complaints, 30d)\n")

        let viaView = try run(["report", "--view", "backend-ios17", "--format", "json"])
        let viaQuery = try run(["report", "--query", query, "--by", "complaints", "--window", "30d", "--format", "json"])
        #expect(viaView.status == 0, "\(viaView.stderr)")
        #expect(viaView.stdout == viaQuery.stdout)
        #expect(viaView.json["by"] as? String == "complaints")
        #expect(try run(["report", "--view", "backend-ios17", "--window", "7d", "--format", "json"]).json["window"] as? String == "7d")

        #expect(try cli.run(["view", "rm", "backend-ios17", "--store", store]).status == 0)   // removing takes no time
        let gone = try run(["report", "--view", "backend-ios17"])
        #expect(gone.status == 1)
        #expect(gone.stderr == "errtriage: no view is named backend-ios17 (there are none yet)\n")
    }

    @Test func savingABadQueryIsRefused() throws {
        let cli = try CLI()
        let result = try cli.run(["view", "save", "x", "--query", "is:big"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\"is:big\" takes new, spike, regressed, assigned, unassigned"), "\(result.stderr)")
    }
}
