#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB
import GRDBSQLite
import Synchronization

/// How the processes writing one SQLite file take turns, so that no writer gives up on another
/// that is still working (issue 49). SQLite lets one writer in at a time; a writer that finds the
/// file locked waits in its busy handler, which SQLite's own would end after a fixed time however
/// busy the holder is, and which loses the race for the lock to a holder that starts its next
/// transaction at once (a prune's next chunk, an ingest's next batch).
///
/// Beside the file, `STORE.progress` holds a mark the holder advances and its waiters read:
/// - the holder writes its pid and name when a write transaction starts, and a new progress word
///   then, at each commit, and every fifth of a second while SQLite executes its statements (a
///   progress handler on the writing connection);
/// - a waiter stamps the time at each look (every 10 ms at most), sees progress as a new word or
///   a change to the file or its WAL (a checkpoint, a transaction spilling its pages), and waits
///   as long as there is progress: it gives up (`SQLITE_BUSY`, exit 3) only when the holder did
///   nothing for `stallSeconds`, as a program holding the lock and doing nothing would (an
///   `sqlite3` shell left in a transaction, a stopped process); after `noticeSeconds` it says
///   who it waits for, once;
/// - after each commit a holder that sees a fresh stamp yields: it waits until a waiter has
///   started its transaction (the word changed) or none stamps any more, a second at most.
///
/// Where the mark cannot be made (a folder that may not be written), waiters still wait as long
/// as the file or its WAL changes.
final class WriterTurns: Sendable {
    let storePath: String
    let markPath: String
    private let fd: Int32
    private let pid = getpid()
    private let sequence = Atomic<UInt32>(0)
    private let lastPublished = Atomic<Int64>(0)
    /// The busy episodes in progress, by thread (SQLite calls the handler on the waiting thread).
    private let episodes = Mutex<[UInt: Episode]>([:])
    /// What the last wait that gave up saw of the holder, for its error.
    private let stalled = Mutex<String?>(nil)

    /// Offsets in the mark: the waiters' stamp, then what the holder writes in one go.
    enum Mark {
        static let stamp: off_t = 0
        static let word: off_t = 8
        static let holderPID: off_t = 16
        static let holderName: off_t = 20
        static let nameBytes = 44
        static let size = 64
    }

    /// Opens (creating it where the store may be written) the mark of the store at `path`.
    init(storePath path: String, writable: Bool) {
        storePath = path
        markPath = path + ".progress"
        var opened: Int32 = -1
        if writable {
            var info = stat()
            let mode = stat(path, &info) == 0 ? mode_t(info.st_mode & 0o666) : 0o644
            opened = open(markPath, O_RDWR | O_CREAT | O_CLOEXEC, mode)
            if opened >= 0 {
                // As SQLite gives its WAL the file's permissions: another user who may write the store
                // may write its mark too (the creator's umask would take the group's bit away).
                var mine = stat()
                if fstat(opened, &mine) == 0, mine.st_uid == geteuid(), mine.st_mode & 0o666 != mode { fchmod(opened, mode) }
            }
        }
        if opened < 0 { opened = open(markPath, O_RDONLY | O_CLOEXEC) }
        fd = opened
    }

    deinit { if fd >= 0 { close(fd) } }

    // MARK: - What this process says and how long it waits

    struct Settings: Sendable {
        var name = "errtriage"
        var notice: (@Sendable (String) -> Void)?
    }

    /// What this process is called and where it says that it waits.
    static let settings = Mutex(Settings())

    /// How long a wait lasts without progress before it gives up, and after how long it is said.
    struct Limits: Sendable {
        var stallSeconds: Double = WriterTurns.environmentSeconds("ERRTRIAGE_STALL_SECONDS") ?? 30
        var noticeSeconds: Double = 3
    }

    /// This store's limits (a test shortens them on its own store).
    let limits = Mutex(Limits())

    static func environmentSeconds(_ name: String) -> Double? {
        guard let text = getenv(name).map({ String(cString: $0) }), let value = Double(text), value > 0 else { return nil }
        return value
    }

    // MARK: - The holder

    /// Installs on a connection of the store: the busy handler (both kinds), and on the writing
    /// connection the progress handler that advances the mark while SQLite works.
    func install(on db: Database, writes: Bool) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        if writes {
            sqlite3_busy_handler(db.sqliteConnection, { context, tries in
                Unmanaged<WriterTurns>.fromOpaque(context!).takeUnretainedValue().wait(tries: Int(tries), writing: true) ? 1 : 0
            }, context)
            sqlite3_progress_handler(db.sqliteConnection, 2_000, { context in
                Unmanaged<WriterTurns>.fromOpaque(context!).takeUnretainedValue().working()
                return 0
            }, context)
        } else {
            sqlite3_busy_handler(db.sqliteConnection, { context, tries in
                Unmanaged<WriterTurns>.fromOpaque(context!).takeUnretainedValue().wait(tries: Int(tries), writing: false) ? 1 : 0
            }, context)
        }
    }

    /// A new progress word: this process's pid and a number it has not written before.
    private func nextWord() -> UInt64 {
        UInt64(UInt32(bitPattern: pid)) << 32 | UInt64(sequence.add(1, ordering: .relaxed).newValue)
    }

    /// A write transaction started: the holder's pid and name, and a new word (a waiter that got
    /// its turn shows the yielding holder so).
    func began() {
        guard fd >= 0 else { return }
        var bytes = [UInt8](repeating: 0, count: Mark.size - Int(Mark.word))
        withUnsafeBytes(of: nextWord().littleEndian) { bytes.replaceSubrange(0..<8, with: $0) }
        withUnsafeBytes(of: UInt32(bitPattern: pid).littleEndian) { bytes.replaceSubrange(8..<12, with: $0) }
        let name = Array(WriterTurns.settings.withLock { $0.name }.utf8.prefix(Mark.nameBytes))
        bytes.replaceSubrange(12..<(12 + name.count), with: name)
        _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, Mark.word) }
        lastPublished.store(WriterTurns.clock(), ordering: .relaxed)
    }

    /// The holder progressed (a commit, or statements executing): a new word.
    func advanced() {
        guard fd >= 0 else { return }
        var word = nextWord().littleEndian
        _ = pwrite(fd, &word, 8, Mark.word)
        lastPublished.store(WriterTurns.clock(), ordering: .relaxed)
    }

    /// SQLite's progress handler on the writing connection: a new word every fifth of a second
    /// of statements executing, however long the transaction.
    private func working() {
        let now = WriterTurns.clock()
        if now - lastPublished.load(ordering: .relaxed) >= 200 { advanced() }
    }

    /// After a commit: a waiter that stamped within the last quarter second gets the lock before
    /// this process takes it again; the wait ends when its transaction starts (the word is no
    /// longer this process's last), when nobody stamps any more, or after a second.
    func yieldToWaiters() {
        guard fd >= 0, let mine = read(Mark.word) else { return }
        let start = WriterTurns.clock()
        while let stamp = read(Mark.stamp), WriterTurns.clock() - Int64(bitPattern: stamp) < 250 {
            if read(Mark.word) != mine || WriterTurns.clock() - start > 1_000 { return }
            usleep(1_000)
        }
    }

    private func read(_ offset: off_t) -> UInt64? {
        guard fd >= 0 else { return nil }
        var value: UInt64 = 0
        guard pread(fd, &value, 8, offset) == 8 else { return nil }
        return UInt64(littleEndian: value)
    }

    // MARK: - The waiter

    /// What a waiter compares between two looks: the holder's word, and the file and its WAL.
    struct Progress: Equatable {
        var word: UInt64?
        var file: [Int64]
    }

    struct Episode {
        var started: Int64
        var lastProgress: Int64
        var seen: Progress
        /// Whether the mark's word changed during the wait: an errtriage is writing.
        var moved = false
        var told = false
    }

    func progress() -> Progress {
        var file: [Int64] = []
        for suffix in ["", "-wal"] {
            var info = stat()
            if stat(storePath + suffix, &info) == 0 {
                #if canImport(Darwin)
                file += [Int64(info.st_size), Int64(info.st_mtimespec.tv_sec), Int64(info.st_mtimespec.tv_nsec)]
                #else
                file += [Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)]
                #endif
            }
        }
        return Progress(word: read(Mark.word), file: file)
    }

    static func thread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// SQLite's busy handler: true to try again after a short sleep, false to give up (SQLite
    /// then returns `SQLITE_BUSY`).
    func wait(tries: Int, writing: Bool) -> Bool {
        let now = WriterTurns.clock()
        let settings = WriterTurns.settings.withLock { $0 }
        let limits = self.limits.withLock { $0 }
        let thread = WriterTurns.thread()
        let seen = progress()
        var episode = episodes.withLock { episodes in
            if tries == 0 || episodes[thread] == nil { episodes[thread] = Episode(started: now, lastProgress: now, seen: seen) }
            return episodes[thread]!
        }
        if seen != episode.seen {
            if seen.word != episode.seen.word { episode.moved = true }
            episode.seen = seen
            episode.lastProgress = now
        }
        if Double(now - episode.lastProgress) / 1_000 >= limits.stallSeconds {
            let holder = episode.moved ? holderDescription(moved: true) : "another program"
            stalled.withLock { $0 = "\(storePath) stayed locked by \(holder), which did nothing with it for \(Int(limits.stallSeconds)) s; try again once it is done" }
            _ = episodes.withLock { $0.removeValue(forKey: thread) }
            return false
        }
        if !episode.told, Double(now - episode.started) / 1_000 >= limits.noticeSeconds {
            episode.told = true
            settings.notice?(episode.moved ? "waiting for \(storePath): \(holderDescription(moved: true)) is writing it"
                             : "waiting for \(storePath), which another program holds")
        }
        episodes.withLock { $0[thread] = episode }
        if writing, fd >= 0 {
            var stamp = now.littleEndian
            _ = pwrite(fd, &stamp, 8, Mark.stamp)
        }
        // Soon at first (a holder between two transactions yields for a moment), then every 10 ms.
        usleep(UInt32([1_000, 2_000, 5_000][safe: tries] ?? 10_000))
        return true
    }

    /// The error of a wait that gave up, naming the holder where the mark or the lock tells it.
    func takeStall() -> String? { stalled.withLock { message in defer { message = nil }; return message } }

    /// Who holds the lock, as far as the mark tells: the errtriage that last started a write
    /// transaction, where it still runs and advanced the mark during this wait (`moved`). (The
    /// lock's own holder is not asked: opening and closing the shared-memory file to ask would
    /// drop the locks SQLite holds on it in this process.)
    func holderDescription(moved: Bool) -> String {
        guard fd >= 0, moved else { return "another program" }
        var pidBytes: UInt32 = 0
        var nameBytes = [UInt8](repeating: 0, count: Mark.nameBytes)
        guard pread(fd, &pidBytes, 4, Mark.holderPID) == 4, pread(fd, &nameBytes, Mark.nameBytes, Mark.holderName) == Mark.nameBytes
        else { return "another program" }
        let holder = Int32(bitPattern: UInt32(littleEndian: pidBytes))
        let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
        guard holder > 0, !name.isEmpty else { return "another program" }
        return holder == pid ? "\(name) (this process)" : "\(name) (pid \(holder))"
    }

    /// Milliseconds of the system's monotonic clock, which every process reads alike.
    static func clock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension TriageStore {
    /// How other errtriage processes that wait for a store this process writes name it
    /// (`errtriage retention prune`, say); set once, by the executable.
    public static func setWriterName(_ name: String) {
        WriterTurns.settings.withLock { $0.name = name }
    }

    /// Where this process says that it waits for another process writing the same SQLite file,
    /// once a wait has lasted a few seconds (the CLI: standard error; nowhere by default).
    public static func onWait(_ notice: (@Sendable (String) -> Void)?) {
        WriterTurns.settings.withLock { $0.notice = notice }
    }
}
