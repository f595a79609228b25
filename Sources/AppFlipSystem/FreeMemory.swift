import CAppFlipSystem

/// The allocator's free memory, given back to the system between the phases of a run (after the suite is read,
/// after the cases ran): glibc keeps what a phase freed in its arenas, resident, and the next phase's peak would stand
/// on it. A no-op where the allocator has no such call.
package enum FreeMemory {
    /// Returns whether anything was given back.
    @discardableResult
    package static func release() -> Bool { appflip_release_free_memory() == 1 }
}
