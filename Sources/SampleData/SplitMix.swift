/// A small deterministic random generator (SplitMix64): the same seed gives the same sample data everywhere.
public struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    /// A generator whose sequence `seed` decides.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in 0..<1.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Picks an index with probability proportional to its weight, from cumulative weights.
    mutating func pick(cumulative: [Double]) -> Int {
        let target = unit() * (cumulative.last ?? 0)
        var lo = 0, hi = cumulative.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulative[mid] > target { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// Picks one of weighted values.
    mutating func weighted<T>(_ choices: [(T, Double)]) -> T {
        var running = 0.0
        let cumulative = choices.map { running += $0.1; return running }
        return choices[pick(cumulative: cumulative)].0
    }

    /// 32 lowercase hex digits.
    mutating func hexID() -> String {
        let a = String(next(), radix: 16), b = String(next(), radix: 16)
        return String(repeating: "0", count: 16 - a.count) + a + String(repeating: "0", count: 16 - b.count) + b
    }
}
