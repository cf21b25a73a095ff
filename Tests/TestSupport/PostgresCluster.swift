import Foundation
import Testing
import ThrowawayPostgres

/// The test run's throwaway PostgreSQL cluster (port 54329), started on first use and stopped
/// when the test process ends.
///
/// Tests never skip for want of a server: when the cluster cannot start, each test that asks for
/// it fails with the server's log. As root (CI here) the server runs as the `postgres` user.
public enum PostgresCluster {
    /// The run's cluster, started on first use.
    public static let shared: Result<ThrowawayPostgres, ThrowawayPostgres.ClusterError> = Result {
        () throws(ThrowawayPostgres.ClusterError) in try ThrowawayPostgres(port: 54329)
    }

    /// The database name in a URI this cluster gave (`postgresql://user@/NAME?host=…`).
    public static func databaseName(_ uri: String) -> String {
        uri.split(separator: "?")[0].split(separator: "/").last.map(String.init) ?? ""
    }

    /// A new empty database on the run's cluster for a test, or a recorded failure with the server's log.
    public static func database(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        do {
            return try shared.get().createDatabase()
        } catch {
            Issue.record("PostgreSQL could not start: \(error)", sourceLocation: sourceLocation)
            throw error
        }
    }
}
