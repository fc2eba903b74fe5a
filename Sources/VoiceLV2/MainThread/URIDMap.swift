import CLilv
import Foundation
import Synchronization

/// The URID map and unmap features: URIs ↔ small integers, shared by every plugin of one world.
///
/// A lock guards the table. That is fine on the process thread only because nothing maps a new
/// URI there: the host maps every URI its real-time path uses before a plugin runs, and plugins
/// map theirs in instantiate. Unmapped strings are copied once and live as long as the map, so
/// the pointers `unmap` returns stay valid.
///
/// - Realtime: never (takes a lock).
public final class URIDMap: @unchecked Sendable {
    private struct Table {
        var ids: [String: LV2_URID] = [:]
        var strings: [UnsafeMutablePointer<CChar>] = []
    }
    private let table = Mutex(Table())
    /// The LV2_URID_Map and LV2_URID_Unmap handed to plugins; their handle is this object,
    /// unretained (the map outlives every instance it was given to).
    let mapFeature: UnsafeMutablePointer<LV2_URID_Map>
    let unmapFeature: UnsafeMutablePointer<LV2_URID_Unmap>

    public init() {
        mapFeature = .allocate(capacity: 1)
        unmapFeature = .allocate(capacity: 1)
        let handle = Unmanaged.passUnretained(self).toOpaque()
        mapFeature.initialize(to: LV2_URID_Map(handle: handle, map: uridMapCallback))
        unmapFeature.initialize(to: LV2_URID_Unmap(handle: handle, unmap: uridUnmapCallback))
    }

    deinit {
        table.withLock { t in t.strings.forEach { free($0) } }
        mapFeature.deallocate()
        unmapFeature.deallocate()
    }

    /// The URID of `uri`, made on first use. IDs start at 1 (0 means "no URID").
    public func map(_ uri: String) -> LV2_URID {
        table.withLock { t in
            if let id = t.ids[uri] { return id }
            t.strings.append(strdup(uri))
            let id = LV2_URID(t.strings.count)
            t.ids[uri] = id
            return id
        }
    }

    /// The URI of `urid`, or nil if it was never mapped.
    public func unmap(_ urid: LV2_URID) -> String? {
        unmapPointer(urid).map { String(cString: $0) }
    }

    fileprivate func unmapPointer(_ urid: LV2_URID) -> UnsafePointer<CChar>? {
        table.withLock { t in
            urid >= 1 && Int(urid) <= t.strings.count ? UnsafePointer(t.strings[Int(urid) - 1]) : nil
        }
    }
}

private func uridMapCallback(
    _ handle: LV2_URID_Map_Handle?, _ uri: UnsafePointer<CChar>?
)
    -> LV2_URID
{
    guard let handle, let uri else { return 0 }
    return Unmanaged<URIDMap>.fromOpaque(handle).takeUnretainedValue().map(String(cString: uri))
}

private func uridUnmapCallback(
    _ handle: LV2_URID_Unmap_Handle?, _ urid: LV2_URID
) -> UnsafePointer<
    CChar
>? {
    guard let handle else { return nil }
    return Unmanaged<URIDMap>.fromOpaque(handle).takeUnretainedValue().unmapPointer(urid)
}
