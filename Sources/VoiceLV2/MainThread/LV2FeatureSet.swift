import CLV2Log
import CLilv
import Foundation

/// The LV2 features one instance is given, in memory that lives as long as the instance.
///
/// Built before instantiation (the options must be known then): URID map and unmap (shared,
/// from the world), options (sample rate, min/max/nominal block length, sequence size), the
/// buf-size block-length promises, log (into a lock-free queue the owner drains), worker
/// schedule (into the instance's `WorkerChannel`) and state:loadDefaultState.
///
/// - Realtime: never (allocates); plugins call the log and schedule functions from their run().
final class LV2FeatureSet {
    let log: OpaquePointer
    private var allocations: [UnsafeMutableRawPointer] = []
    private var uris: [UnsafeMutablePointer<CChar>] = []
    /// NULL-terminated feature list for lilv_plugin_instantiate and the state functions.
    let list: UnsafeMutablePointer<UnsafePointer<LV2_Feature>?>

    init(
        configuration c: LV2Configuration, sequenceSize: Int, urids: URIDMap,
        schedule: UnsafeMutablePointer<LV2_Worker_Schedule>
    ) {
        log = vr_log_queue_create()
        let (options, optionMemory) = Self.makeOptions(c, sequenceSize: sequenceSize, urids: urids)
        var features: [(String, UnsafeMutableRawPointer?)] = [
            (LV2URI.uridMap, UnsafeMutableRawPointer(urids.mapFeature)),
            (LV2URI.uridUnmap, UnsafeMutableRawPointer(urids.unmapFeature)),
            (LV2URI.options, UnsafeMutableRawPointer(options)),
            (LV2URI.boundedBlockLength, nil),
            (LV2URI.log, vr_log_queue_feature_data(log)),
            (LV2URI.workerSchedule, UnsafeMutableRawPointer(schedule)),
            (LV2URI.loadDefaultState, nil),
        ]
        if c.fixedBlockSize { features.append((LV2URI.fixedBlockLength, nil)) }
        list = .allocate(capacity: features.count + 1)
        allocations = optionMemory
        for (i, (uri, data)) in features.enumerated() {
            let feature = UnsafeMutablePointer<LV2_Feature>.allocate(capacity: 1)
            let name = strdup(uri)!
            uris.append(name)
            feature.initialize(to: LV2_Feature(URI: name, data: data))
            allocations.append(UnsafeMutableRawPointer(feature))
            list[i] = UnsafePointer(feature)
        }
        list[features.count] = nil
    }

    deinit {
        allocations.forEach { $0.deallocate() }
        uris.forEach { free($0) }
        list.deallocate()
        vr_log_queue_destroy(log)
    }

    /// The options array: sample rate (float), block lengths and sequence size (int), each value
    /// in memory of its own, terminated by an all-zero option; with every allocation made, for
    /// `deinit` to free.
    private static func makeOptions(
        _ c: LV2Configuration, sequenceSize: Int, urids: URIDMap
    ) -> (UnsafeMutablePointer<LV2_Options_Option>, [UnsafeMutableRawPointer]) {
        var allocations: [UnsafeMutableRawPointer] = []
        let floatType = urids.map(LV2URI.atomFloat)
        let intType = urids.map(LV2URI.atomInt)
        let rate = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        rate.initialize(to: Float(c.sampleRate))
        allocations.append(UnsafeMutableRawPointer(rate))
        func int(_ v: Int) -> UnsafeRawPointer {
            let p = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
            p.initialize(to: Int32(v))
            allocations.append(UnsafeMutableRawPointer(p))
            return UnsafeRawPointer(p)
        }
        func option(
            _ key: String, _ type: LV2_URID, _ size: Int, _ value: UnsafeRawPointer
        )
            -> LV2_Options_Option
        {
            LV2_Options_Option(
                context: LV2_OPTIONS_INSTANCE, subject: 0, key: urids.map(key), size: UInt32(size),
                type: type,
                value: value)
        }
        let values = [
            option(LV2URI.sampleRate, floatType, 4, UnsafeRawPointer(rate)),
            option(LV2URI.minBlockLength, intType, 4, int(c.fixedBlockSize ? c.maximumBlockSize : 0)),
            option(LV2URI.maxBlockLength, intType, 4, int(c.maximumBlockSize)),
            option(LV2URI.nominalBlockLength, intType, 4, int(c.maximumBlockSize)),
            option(LV2URI.sequenceSize, intType, 4, int(sequenceSize)),
            LV2_Options_Option(
                context: LV2_OPTIONS_INSTANCE, subject: 0, key: 0, size: 0, type: 0, value: nil),
        ]
        let array = UnsafeMutablePointer<LV2_Options_Option>.allocate(capacity: values.count)
        array.initialize(from: values, count: values.count)
        allocations.append(UnsafeMutableRawPointer(array))
        return (array, allocations)
    }

    /// Log lines the plugin wrote since the last call, oldest first, as "error: ..." etc.
    /// Consumer side of the log queue: one thread at a time, never the process thread.
    func drainLog(urids: URIDMap) -> [String] {
        var lines: [String] = []
        var type: UInt32 = 0
        var text = [CChar](repeating: 0, count: 512)
        while vr_log_queue_pop(log, &type, &text, text.count) == 1 {
            let kind =
                urids.unmap(type).map { $0.split(separator: "#").last.map(String.init) ?? $0 } ?? "log"
            let line = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
            lines.append("\(kind.lowercased()): \(line)")
        }
        return lines
    }
}
