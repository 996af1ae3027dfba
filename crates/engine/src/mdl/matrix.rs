//! The compatibility and priority matrices, as bitmaps: entry `[t]` holds the types that
//! block a request of type `t` (`m_granted_incompatible`, `m_waiting_incompatible`).
//!
//! Two strategies, as in 8.0.40 `sql/mdl.cc`: the scoped one (`MDL_lock::
//! m_scoped_lock_strategy`: GLOBAL, BACKUP LOCK, SCHEMA, COMMIT) with IX, S and X, and
//! the object one (`MDL_lock::m_object_lock_strategy`: TABLE) with the ten object types.
//! Each has one granted matrix and four priority ("waiting") matrices, chosen by
//! `MDL_lock::m_current_waiting_incompatible_idx`; the rows are written in the server's
//! type order with the bits the server's `MDL_BIT()` lists name. `tests.rs` renders
//! them cell by cell against the fact sheets (4.2, 4.3).

use super::types::{MdlLockStrategy, MdlType};

const IX: u16 = MdlType::IntentionExclusive.bit();
const S: u16 = MdlType::Shared.bit();
const SH: u16 = MdlType::SharedHighPrio.bit();
const SR: u16 = MdlType::SharedRead.bit();
const SW: u16 = MdlType::SharedWrite.bit();
const SWLP: u16 = MdlType::SharedWriteLowPrio.bit();
const SU: u16 = MdlType::SharedUpgradable.bit();
const SRO: u16 = MdlType::SharedReadOnly.bit();
const SNW: u16 = MdlType::SharedNoWrite.bit();
const SNRW: u16 = MdlType::SharedNoReadWrite.bit();
const X: u16 = MdlType::Exclusive.bit();

/// The strong types that may starve weaker ones (`MDL_OBJECT_HOG_LOCK_TYPES`).
pub(super) const HOG: u16 = SNW | SNRW | X;
pub(super) const SHARED_WRITE: u16 = SW;
pub(super) const SHARED_WRITE_LOW_PRIO: u16 = SWLP;
pub(super) const SHARED_READ_ONLY: u16 = SRO;

/// One strategy's matrices; rows are indexed by the requested type.
#[derive(Debug)]
pub(super) struct Matrices {
    /// Granted types (of other contexts) that block a request.
    pub(super) granted: [u16; 11],
    /// Waiting types that block a request: #0 default, #1 piglets over the limit,
    /// #2 hogs over the limit, #3 both.
    pub(super) waiting: [[u16; 11]; 4],
}

/// `MDL_lock::m_scoped_lock_strategy`. As `sql/mdl.cc`'s comment draws it (`+`
/// compatible, `-` not; the cells `tests.rs` checks):
///
/// ```text
///   Request  | Granted | Pending |
///    type    | IX S X  | IX S X  |
///   ---------+---------+---------+
///   IX       | +  - -  | +  - -  |
///   S        | -  + -  | +  + -  |
///   X        | -  - -  | +  + +  |
/// ```
pub(super) const SCOPED: Matrices = Matrices {
    granted: [
        /* IX   */ S | X,
        /* S    */ IX | X,
        /* SH   */ 0,
        /* SR   */ 0,
        /* SW   */ 0,
        /* SWLP */ 0,
        /* SU   */ 0,
        /* SRO  */ 0,
        /* SNW  */ 0,
        /* SNRW */ 0,
        /* X    */ IX | S | X,
    ],
    // Scoped locks use only the default priority matrix.
    waiting: [
        [S | X, X, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0; 11],
        [0; 11],
        [0; 11],
    ],
};

/// `MDL_lock::m_object_lock_strategy`. The granted matrix and the default priority
/// matrix (#0) as `sql/mdl.cc`'s comments draw them (`+` compatible, `-` not; the
/// cells `tests.rs` checks, with #1 to #3):
///
/// ```text
///   Request  |  Granted requests for lock          |
///    type    | S  SH  SR  SW  SWLP  SU  SRO  SNW  SNRW  X  |
///   ---------+-------------------------------------------+
///   S        | +   +   +   +    +    +   +    +    +    -  |
///   SH       | +   +   +   +    +    +   +    +    +    -  |
///   SR       | +   +   +   +    +    +   +    +    -    -  |
///   SW       | +   +   +   +    +    +   -    -    -    -  |
///   SWLP     | +   +   +   +    +    +   -    -    -    -  |
///   SU       | +   +   +   +    +    -   +    -    -    -  |
///   SRO      | +   +   +   -    -    +   +    +    -    -  |
///   SNW      | +   +   +   -    -    -   +    -    -    -  |
///   SNRW     | +   +   -   -    -    -   -    -    -    -  |
///   X        | -   -   -   -    -    -   -    -    -    -  |
///
///   Request  |  Pending requests for lock          |
///    type    | S  SH  SR  SW  SWLP  SU  SRO  SNW  SNRW  X  |
///   ---------+-------------------------------------------+
///   S        | +   +   +   +    +    +   +    +    +    -  |
///   SH       | +   +   +   +    +    +   +    +    +    +  |
///   SR       | +   +   +   +    +    +   +    +    -    -  |
///   SW       | +   +   +   +    +    +   +    -    -    -  |
///   SWLP     | +   +   +   +    +    +   -    -    -    -  |
///   SU       | +   +   +   +    +    +   +    +    +    -  |
///   SRO      | +   +   +   -    +    +   +    +    -    -  |
///   SNW      | +   +   +   +    +    +   +    +    +    -  |
///   SNRW     | +   +   +   +    +    +   +    +    +    -  |
///   X        | +   +   +   +    +    +   +    +    +    +  |
/// ```
pub(super) const OBJECT: Matrices = Matrices {
    granted: [
        /* IX   */ 0,
        /* S    */ X,
        /* SH   */ X,
        /* SR   */ X | SNRW,
        /* SW   */ X | SNRW | SNW | SRO,
        /* SWLP */ X | SNRW | SNW | SRO,
        /* SU   */ X | SNRW | SNW | SU,
        /* SRO  */ X | SNRW | SW | SWLP,
        /* SNW  */ X | SNRW | SNW | SU | SW | SWLP,
        /* SNRW */ X | SNRW | SNW | SRO | SU | SW | SWLP | SR,
        /* X    */ X | SNRW | SNW | SRO | SU | SW | SWLP | SR | SH | S,
    ],
    waiting: [
        // #0: the default. X outranks everything but SH; SNW/SNRW outrank SR/SW.
        [
            /* IX   */ 0,
            /* S    */ X,
            /* SH   */ 0,
            /* SR   */ X | SNRW,
            /* SW   */ X | SNRW | SNW,
            /* SWLP */ X | SNRW | SNW | SRO,
            /* SU   */ X,
            /* SRO  */ X | SNRW | SW,
            /* SNW  */ X,
            /* SNRW */ X,
            /* X    */ 0,
        ],
        // #1: too many SW ("piglets") in a row: SRO now outranks SW.
        [
            /* IX   */ 0,
            /* S    */ X,
            /* SH   */ 0,
            /* SR   */ X | SNRW,
            /* SW   */ X | SNRW | SNW | SRO,
            /* SWLP */ X | SNRW | SNW | SRO,
            /* SU   */ X,
            /* SRO  */ X | SNRW,
            /* SNW  */ X,
            /* SNRW */ X,
            /* X    */ 0,
        ],
        // #2: too many hogs in a row: every weaker type outranks them.
        [
            /* IX   */ 0,
            /* S    */ 0,
            /* SH   */ 0,
            /* SR   */ 0,
            /* SW   */ 0,
            /* SWLP */ SRO,
            /* SU   */ 0,
            /* SRO  */ SW,
            /* SNW  */ X | SU | SWLP | SW,
            /* SNRW */ X | SRO | SU | SWLP | SW | SR,
            /* X    */ S | SH | SR | SW | SWLP | SU | SRO,
        ],
        // #3: both: SRO outranks SW/SWLP, other weak types outrank the hogs.
        [
            /* IX   */ 0,
            /* S    */ 0,
            /* SH   */ 0,
            /* SR   */ 0,
            /* SW   */ X | SNRW | SNW | SRO,
            /* SWLP */ X | SNRW | SNW | SRO,
            /* SU   */ 0,
            /* SRO  */ 0,
            /* SNW  */ X | SU,
            /* SNRW */ X | SRO | SU | SR,
            /* X    */ S | SH | SR | SU | SRO,
        ],
    ],
};

impl MdlLockStrategy {
    /// The strategy's matrices (`MDL_lock_strategy`).
    pub(super) fn matrices(self) -> &'static Matrices {
        match self {
            MdlLockStrategy::Scoped => &SCOPED,
            MdlLockStrategy::Object => &OBJECT,
        }
    }

    /// Whether `max_write_lock_count` applies (`m_is_affected_by_max_write_lock_count`).
    pub(super) const fn affected_by_max_write_lock_count(self) -> bool {
        matches!(self, MdlLockStrategy::Object)
    }
}

/// Whether a ticket of type `held` allows nothing that `wanted` forbids
/// (`MDL_ticket::has_stronger_or_equal_type()`).
pub(super) fn has_stronger_or_equal_type(
    strategy: MdlLockStrategy,
    held: MdlType,
    wanted: MdlType,
) -> bool {
    let granted = &strategy.matrices().granted;
    granted[wanted as usize] & !granted[held as usize] == 0
}
