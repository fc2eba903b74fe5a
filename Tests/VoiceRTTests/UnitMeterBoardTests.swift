import Testing
import VoiceRT

@Suite("Unit meter board")
struct UnitMeterBoardTests {
    @Test("each unit reads what was last published for it, peak and reduction from the same publish")
    func publishAndRead() {
        let board = UnitMeterBoard(count: 3)
        #expect(board.count == 3)
        // Before any publish: silence and no reduction figure.
        #expect(board.reading(1).peak == 0 && board.reading(1).reductionDB.isNaN)
        board.publish(0, UnitMeterReading(peak: 0.5, reductionDB: 6.25))
        board.publish(2, UnitMeterReading(peak: 0.125, reductionDB: .nan))
        board.publish(0, UnitMeterReading(peak: 0.75, reductionDB: 3.5))
        let all = board.readings()
        #expect(all.count == 3)
        #expect(all[0].peak == 0.75 && all[0].reductionDB == 3.5)
        #expect(all[1].peak == 0 && all[1].reductionDB.isNaN)
        #expect(all[2].peak == 0.125 && all[2].reductionDB.isNaN)
    }

    @Test("a publish off the board is ignored, and an empty board reads nothing")
    func outOfRange() {
        let board = UnitMeterBoard(count: 1)
        board.publish(1, UnitMeterReading(peak: 1, reductionDB: 1))
        board.publish(-1, UnitMeterReading(peak: 1, reductionDB: 1))
        #expect(board.reading(0).peak == 0)
        let empty = UnitMeterBoard(count: 0)
        empty.publish(0, UnitMeterReading(peak: 1, reductionDB: 1))
        #expect(empty.readings().isEmpty)
    }

    @Test("the figures' bits travel exactly, negative and subnormal ones too")
    func exactBits() {
        let board = UnitMeterBoard(count: 1)
        for (peak, reduction) in [(Float.leastNonzeroMagnitude, Float(-0.0)), (1e-30, 120), (8, -3.25)] {
            board.publish(0, UnitMeterReading(peak: peak, reductionDB: reduction))
            let r = board.reading(0)
            #expect(r.peak.bitPattern == peak.bitPattern && r.reductionDB.bitPattern == reduction.bitPattern)
        }
    }
}
