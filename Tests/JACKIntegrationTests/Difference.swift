/// Where two signals differ, for the report lines and expectations: the count of samples that
/// differ, the first and the largest difference; lengths that differ count as a difference.
///
/// - Realtime: never; test thread.
struct Difference: CustomStringConvertible {
    let lengths: (Int, Int)
    let differing: Int
    let first: Int?
    let largest: Float

    init(_ a: [Float], _ b: [Float]) {
        lengths = (a.count, b.count)
        let pairs = zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }
        differing = pairs.count
        first = pairs.first?.offset
        largest = pairs.map { abs($0.element.0 - $0.element.1) }.max() ?? 0
    }

    var isNone: Bool { differing == 0 && lengths.0 == lengths.1 }

    var description: String {
        isNone
            ? "sample-identical (\(lengths.0) samples)"
            : "\(differing) of \(min(lengths.0, lengths.1)) samples differ (first at \(first.map(String.init) ?? "-"), largest \(largest)); lengths \(lengths.0) and \(lengths.1)"
    }
}
