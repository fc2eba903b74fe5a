import CJack
import VoiceCycle

/// JACK's sync callback, registered only when the cycle follows the transport
/// (`CycleState.followsTransport`): ready once the cycle is ready to roll from `position`'s frame.
/// JACK holds the transport in its starting state until every slow-sync client is ready.
///
/// - Realtime: safe; JACK calls it on the process thread, before the process callback.
@_noLocks
func transportSync(
    _ state: jack_transport_state_t, _ position: UnsafeMutablePointer<jack_position_t>?, _ arg: UnsafeMutableRawPointer?
) -> Int32 {
    guard let position, let cycle = arg?.assumingMemoryBound(to: DriverContext.self).pointee.cycle else { return 1 }
    return cycle.pointee.transportReady(atFrame: Int(position.pointee.frame)) ? 1 : 0
}
