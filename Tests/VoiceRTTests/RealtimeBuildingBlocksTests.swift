import Foundation
import Testing
import VoiceRT

@Suite("Real-time building blocks")
struct RealtimeBuildingBlocksTests {
    @Test("the FIFO keeps order across wrap-around and reports its fill")
    func fifoOrder() {
        var fifo = SampleFIFO(minimumCapacity: 100)
        #expect(fifo.capacity == 128)
        var next: Float = 0
        var expected: Float = 0
        var out = [Float](repeating: 0, count: 70)
        for _ in 0..<50 {
            let block = (0..<70).map { _ in
                defer { next += 1 }; return next
            }
            block.withUnsafeBufferPointer { fifo.push($0.baseAddress!, 70) }
            #expect(fifo.count == 70 && fifo.space == 58)
            out.withUnsafeMutableBufferPointer { fifo.pop(into: $0.baseAddress!, 70) }
            for v in out {
                #expect(v == expected)
                expected += 1
            }
        }
        #expect(fifo.count == 0)
    }

    @Test("the delay line delays by exactly the set number of samples, and can change", arguments: [0, 1, 37, 480])
    func delayLine(delay: Int) {
        var line = DelayLine(maximumDelay: 1_000, maximumBlock: 64)
        line.setDelay(delay)
        let input = (1...640).map(Float.init)
        var output = [Float](repeating: -1, count: 640)
        input.withUnsafeBufferPointer { i in
            output.withUnsafeMutableBufferPointer { o in
                for start in stride(from: 0, to: 640, by: 64) {
                    line.process(i.baseAddress! + start, o.baseAddress! + start, 64)
                }
            }
        }
        for n in 0..<640 { #expect(output[n] == (n >= delay ? input[n - delay] : 0)) }
        line.setDelay(5_000)
        #expect(line.delay == 1_000)
    }

    @Test("the FFT matches a direct DFT and inverts exactly")
    func fft() {
        let n = 64
        let fft = FFT(size: n)
        let x = (0..<n).map { Float(sin(Double($0) * 0.7) + 0.3 * cos(Double($0) * 2.1)) }
        var re = x, im = [Float](repeating: 0, count: n)
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in fft.forward(r.baseAddress!, i.baseAddress!) }
        }
        for k in [0, 1, 5, 31, 63] {
            var dr = 0.0, di = 0.0
            for t in 0..<n {
                let a = -2 * Double.pi * Double(k * t) / Double(n)
                dr += Double(x[t]) * cos(a)
                di += Double(x[t]) * sin(a)
            }
            #expect(abs(Double(re[k]) - dr) < 1e-3 && abs(Double(im[k]) - di) < 1e-3, "bin \(k)")
        }
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in fft.inverse(r.baseAddress!, i.baseAddress!) }
        }
        #expect(zip(re, x).allSatisfy { abs($0 - $1) < 1e-5 })
    }

    @Test("the ring passes a million values between two threads in order, none lost")
    func ringStress() async {
        let ring = SPSCRing<Int>(capacity: 64, empty: 0)
        defer { ring.deallocate() }
        let total = 1_000_000
        let producer = ring.producer
        let thread = Thread {
            var v = 0
            while v < total { if producer.push(v) { v += 1 } }
        }
        thread.start()
        let consumer = ring.consumer
        var expected = 0
        var outOfOrder = 0
        while expected < total {
            if let v = consumer.pop() {
                if v != expected { outOfOrder += 1 }
                expected += 1
            }
        }
        #expect(outOfOrder == 0)
        #expect(consumer.pop() == nil)
    }

    @Test("the ring refuses pushes when full and pops nothing when empty")
    func ringBounds() {
        let ring = SPSCRing<Int>(capacity: 4, empty: 0)
        defer { ring.deallocate() }
        #expect(ring.consumer.pop() == nil)
        for v in 0..<4 { #expect(ring.producer.push(v)) }
        #expect(!ring.producer.push(4))
        #expect(ring.consumer.available() == 4)
        #expect(ring.producer.space() == 0)
        #expect(ring.consumer.pop() == 0)
        #expect(ring.producer.push(4))
    }

    @Test("samples go in and out in runs that wrap around the ring; the counts say what fitted")
    func sampleRuns() {
        let ring = SPSCRing<Float>(capacity: 8, empty: 0)
        defer { ring.deallocate() }
        let source: [Float] = (0..<6).map(Float.init)
        var out = [Float](repeating: -1, count: 8)
        source.withUnsafeBufferPointer { s in
            #expect(ring.producer.write(s.baseAddress!, 6) == 6)
            out.withUnsafeMutableBufferPointer { #expect(ring.consumer.read(into: $0.baseAddress!, 4) == 4) }
            #expect(ring.producer.write(s.baseAddress!, 6) == 6)  // wraps: 2 + 6 = 8 held
            #expect(ring.producer.write(s.baseAddress!, 1) == 0)  // full
        }
        #expect(out[0..<4] == [0, 1, 2, 3])
        out.withUnsafeMutableBufferPointer { #expect(ring.consumer.read(into: $0.baseAddress!, 8) == 8) }
        #expect(out == [4, 5, 0, 1, 2, 3, 4, 5])
        source.withUnsafeBufferPointer { #expect(ring.producer.write($0.baseAddress!, 3) == 3) }
        ring.consumer.discardAll()
        #expect(ring.consumer.available() == 0)
    }

    @Test("the block pool hands every slot out once, back in the order published, and refuses when all are out")
    func blockPool() {
        let pool = BlockPool(count: 3)
        defer { pool.deallocate() }
        let taken = (0..<3).compactMap { _ in pool.producer.take() }
        #expect(taken == [0, 1, 2])
        #expect(pool.producer.take() == nil)
        pool.producer.publish(2)
        pool.producer.publish(0)
        #expect(pool.consumer.next() == 2)
        #expect(pool.consumer.next() == 0)
        #expect(pool.consumer.next() == nil)
        pool.consumer.release(0)
        #expect(pool.producer.freeSlots() == 1)
        #expect(pool.producer.take() == 0)
    }
}

@Suite("Control ring")
struct ControlRingTests {
    @Test("messages pack into one word and come back intact, in order; a full ring says so")
    func roundTrip() {
        let ring = ControlRing(capacity: 4)
        defer { ring.deallocate() }
        let messages = [
            ControlMessage(ParameterID(rawValue: 0), -12.5), ControlMessage(ParameterID(rawValue: .max), -.infinity),
            ControlMessage("compressor.threshold_dbfs", 1e-30), ControlMessage("monitor.unmute", 0.5),
        ]
        for m in messages { #expect(ring.push(m)) }
        #expect(!ring.push(messages[0]))
        #expect(ring.available() == 4)
        for m in messages { #expect(ring.pop() == m) }
        #expect(ring.pop() == nil)
    }

    @Test("identifiers come from names alone: the same name always, different names differently")
    func identifiersFromNames() {
        // FNV-1a 32 of the name: a fixed value, so an identifier never depends on a position.
        #expect(ParameterID("").rawValue == 2_166_136_261)
        #expect(ParameterID("a").rawValue == 0xE40C_292C)
        #expect(ParameterID("compressor.threshold_dbfs") == ParameterID("compressor.threshold_dbfs"))
        #expect(ParameterID("compressor.threshold_dbfs") != ParameterID("compressor.ratio"))
    }
}
