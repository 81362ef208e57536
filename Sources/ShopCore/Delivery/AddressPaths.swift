import Synchronization

/// The division path (`DeliveryAreas.path(of:)`) each address had at its last checkout on this
/// node, so the next checkout can send its zone query with its opening read, before the address is
/// read: one round trip fewer on PostgreSQL. Only a guess: the checkout computes the path again
/// from the address it reads in its transaction, and asks the zone again when the guess was wrong
/// (the address edited since, or another node's). The zones themselves are always read in the
/// checkout's transaction, so nothing here can be stale. Bounded: past `capacity` it starts over.
final class AddressPaths: Sendable {
    private let paths = Mutex<[AddressID: [RegionCode]]>([:])
    let capacity: Int

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// The path `address` had when last noted, if it was.
    func guess(_ address: AddressID) -> [RegionCode]? {
        paths.withLock { $0[address] }
    }

    /// Notes the path an address has now.
    func note(_ path: [RegionCode], of address: AddressID) {
        paths.withLock { paths in
            if paths[address] == path { return }
            if paths.count >= capacity { paths.removeAll(keepingCapacity: true) }
            paths[address] = path
        }
    }
}
