//! The lock manager's properties that are not transcripts: the matrices rendered cell by
//! cell against the fact sheets, the names the server prints, and random sessions over
//! many seeds with the invariants checked after every step. The transcripts are
//! `testdata/*.mdl` (see `golden.rs`).

use super::lock::{MdlLock, WaitingEntry};
use super::matrix::has_stronger_or_equal_type;
use super::*;
use crate::rng::SimRng;
use crate::time::Tick;
use expect_test::expect;
use std::collections::BTreeMap;
use std::fmt::Write;

/// A matrix as the fact sheet prints it: rows are requests, columns the other lock.
fn render(types: &[MdlType], cell: impl Fn(MdlType, MdlType) -> bool) -> String {
    let mut s = String::from("| req |");
    for c in types {
        write!(s, " {} |", c.abbrev()).unwrap();
    }
    s.push_str("\n|");
    s.push_str(&"---|".repeat(types.len() + 1));
    s.push('\n');
    for &r in types {
        write!(s, "| {} |", r.abbrev()).unwrap();
        for &c in types {
            write!(s, " {} |", if cell(r, c) { '+' } else { '-' }).unwrap();
        }
        s.push('\n');
    }
    s
}

/// Whether `request` is granted while another context holds `granted`, through the
/// public API.
fn granted_compatible(key: &MdlKey, request: MdlType, granted: MdlType) -> bool {
    let mut mdl = MdlManager::new();
    let holder = MdlRequest::new(key.clone(), granted, MdlDuration::Transaction);
    let (held, _) = mdl.try_acquire(MdlContextId(2), holder);
    assert!(held.is_some());
    let req = MdlRequest::new(key.clone(), request, MdlDuration::Transaction);
    let (got, wakeups) = mdl.try_acquire(MdlContextId(1), req);
    assert!(wakeups.is_empty());
    mdl.validate().unwrap();
    got.is_some()
}

/// Whether `request` passes a `pending` request of another context, under priority
/// matrix `idx`, nothing being granted.
fn pending_compatible(
    strategy: MdlLockStrategy,
    idx: usize,
    request: MdlType,
    pending: MdlType,
) -> bool {
    let key = match strategy {
        MdlLockStrategy::Scoped => MdlKey::global(),
        MdlLockStrategy::Object => MdlKey::table("db", "t"),
    };
    let mut lock = MdlLock::new(key);
    lock.waiting_incompatible_idx = idx;
    lock.waiting.push(WaitingEntry {
        request: MdlRequestId(1),
        ctx: MdlContextId(2),
        mdl_type: pending,
    });
    lock.can_grant_lock(request, MdlContextId(1))
}

#[test]
fn granted_matrix_is_the_fact_sheets() {
    // Fact sheet 4.2, cell by cell: row = request, column = granted by another context.
    let t = MdlKey::table("db", "t");
    let got = render(&MdlType::OBJECT, |r, c| granted_compatible(&t, r, c));
    expect![[r#"
        | req | S | SH | SR | SW | SWLP | SU | SRO | SNW | SNRW | X |
        |---|---|---|---|---|---|---|---|---|---|---|
        | S | + | + | + | + | + | + | + | + | + | - |
        | SH | + | + | + | + | + | + | + | + | + | - |
        | SR | + | + | + | + | + | + | + | + | - | - |
        | SW | + | + | + | + | + | + | - | - | - | - |
        | SWLP | + | + | + | + | + | + | - | - | - | - |
        | SU | + | + | + | + | + | - | + | - | - | - |
        | SRO | + | + | + | - | - | + | + | + | - | - |
        | SNW | + | + | + | - | - | - | + | - | - | - |
        | SNRW | + | + | - | - | - | - | - | - | - | - |
        | X | - | - | - | - | - | - | - | - | - | - |
    "#]]
    .assert_eq(&got);
}

#[test]
fn own_granted_locks_never_conflict() {
    let t = MdlKey::table("db", "t");
    for held in MdlType::OBJECT {
        for wanted in MdlType::OBJECT {
            let mut mdl = MdlManager::new();
            let ctx = MdlContextId(1);
            let req = MdlRequest::new(t.clone(), held, MdlDuration::Statement);
            assert!(mdl.try_acquire(ctx, req).0.is_some());
            let req = MdlRequest::new(t.clone(), wanted, MdlDuration::Transaction);
            assert!(
                mdl.try_acquire(ctx, req).0.is_some(),
                "{held} then {wanted}"
            );
        }
    }
}

#[test]
fn pending_matrix_is_the_fact_sheets() {
    // Fact sheet 4.3 (matrix #0), cell by cell: column = pending in another context.
    let got = render(&MdlType::OBJECT, |r, c| {
        pending_compatible(MdlLockStrategy::Object, 0, r, c)
    });
    expect![[r#"
        | req | S | SH | SR | SW | SWLP | SU | SRO | SNW | SNRW | X |
        |---|---|---|---|---|---|---|---|---|---|---|
        | S | + | + | + | + | + | + | + | + | + | - |
        | SH | + | + | + | + | + | + | + | + | + | + |
        | SR | + | + | + | + | + | + | + | + | - | - |
        | SW | + | + | + | + | + | + | + | - | - | - |
        | SWLP | + | + | + | + | + | + | - | - | - | - |
        | SU | + | + | + | + | + | + | + | + | + | - |
        | SRO | + | + | + | - | + | + | + | + | - | - |
        | SNW | + | + | + | + | + | + | + | + | + | - |
        | SNRW | + | + | + | + | + | + | + | + | + | - |
        | X | + | + | + | + | + | + | + | + | + | + |
    "#]]
    .assert_eq(&got);
}

#[test]
fn alternative_priority_matrices() {
    // Fact sheet 4.3's prose: #1 SW also yields to pending SRO, SRO ignores pending
    // SW; #2 S/SH/SR/SW/SU ignore pending, SWLP waits for SRO, SRO for SW, SNW for
    // X,SU,SWLP,SW, SNRW for X,SRO,SU,SWLP,SW,SR, X for every non-hog; #3 SW/SWLP wait
    // for X,SNRW,SNW,SRO, SNW for X,SU, SNRW for X,SRO,SU,SR, X for S,SH,SR,SU,SRO.
    let mut got = String::new();
    for idx in 1..4 {
        writeln!(got, "#{idx}").unwrap();
        got.push_str(&render(&MdlType::OBJECT, |r, c| {
            pending_compatible(MdlLockStrategy::Object, idx, r, c)
        }));
    }
    expect![[r#"
        #1
        | req | S | SH | SR | SW | SWLP | SU | SRO | SNW | SNRW | X |
        |---|---|---|---|---|---|---|---|---|---|---|
        | S | + | + | + | + | + | + | + | + | + | - |
        | SH | + | + | + | + | + | + | + | + | + | + |
        | SR | + | + | + | + | + | + | + | + | - | - |
        | SW | + | + | + | + | + | + | - | - | - | - |
        | SWLP | + | + | + | + | + | + | - | - | - | - |
        | SU | + | + | + | + | + | + | + | + | + | - |
        | SRO | + | + | + | + | + | + | + | + | - | - |
        | SNW | + | + | + | + | + | + | + | + | + | - |
        | SNRW | + | + | + | + | + | + | + | + | + | - |
        | X | + | + | + | + | + | + | + | + | + | + |
        #2
        | req | S | SH | SR | SW | SWLP | SU | SRO | SNW | SNRW | X |
        |---|---|---|---|---|---|---|---|---|---|---|
        | S | + | + | + | + | + | + | + | + | + | + |
        | SH | + | + | + | + | + | + | + | + | + | + |
        | SR | + | + | + | + | + | + | + | + | + | + |
        | SW | + | + | + | + | + | + | + | + | + | + |
        | SWLP | + | + | + | + | + | + | - | + | + | + |
        | SU | + | + | + | + | + | + | + | + | + | + |
        | SRO | + | + | + | - | + | + | + | + | + | + |
        | SNW | + | + | + | - | - | - | + | + | + | - |
        | SNRW | + | + | - | - | - | - | - | + | + | - |
        | X | - | - | - | - | - | - | - | + | + | + |
        #3
        | req | S | SH | SR | SW | SWLP | SU | SRO | SNW | SNRW | X |
        |---|---|---|---|---|---|---|---|---|---|---|
        | S | + | + | + | + | + | + | + | + | + | + |
        | SH | + | + | + | + | + | + | + | + | + | + |
        | SR | + | + | + | + | + | + | + | + | + | + |
        | SW | + | + | + | + | + | + | - | - | - | - |
        | SWLP | + | + | + | + | + | + | - | - | - | - |
        | SU | + | + | + | + | + | + | + | + | + | + |
        | SRO | + | + | + | + | + | + | + | + | + | + |
        | SNW | + | + | + | + | + | - | + | + | + | - |
        | SNRW | + | + | - | + | + | - | - | + | + | - |
        | X | - | - | - | + | + | - | - | + | + | + |
    "#]]
    .assert_eq(&got);
}

#[test]
fn scoped_matrices() {
    // Fact sheet 4.3's last lines: granted IX⊥{S,X}, S⊥{IX,X}, X⊥all; pending: IX
    // waits for S/X, S waits for X. Checked for every scoped namespace.
    for k in [
        MdlKey::global(),
        MdlKey::backup_lock(),
        MdlKey::schema("db"),
        MdlKey::commit(),
    ] {
        let granted = render(&MdlType::SCOPED, |r, c| granted_compatible(&k, r, c));
        expect![[r#"
            | req | IX | S | X |
            |---|---|---|---|
            | IX | + | - | - |
            | S | - | + | - |
            | X | - | - | - |
        "#]]
        .assert_eq(&granted);
    }
    let pending = render(&MdlType::SCOPED, |r, c| {
        pending_compatible(MdlLockStrategy::Scoped, 0, r, c)
    });
    expect![[r#"
        | req | IX | S | X |
        |---|---|---|---|
        | IX | + | - | - |
        | S | + | + | - |
        | X | + | + | + |
    "#]]
    .assert_eq(&pending);
}

#[test]
fn names_and_states() {
    let mut got = String::new();
    for t in MdlType::ALL {
        writeln!(got, "{:<4} {t} {}", t.abbrev(), t.pfs_name()).unwrap();
    }
    for d in MdlDuration::ALL {
        writeln!(got, "{d} {}", d.pfs_name()).unwrap();
    }
    for k in [
        MdlKey::global(),
        MdlKey::backup_lock(),
        MdlKey::schema("db"),
        MdlKey::table("db", "t"),
        MdlKey::commit(),
    ] {
        writeln!(got, "{k}: {}", k.wait_state_name()).unwrap();
    }
    for e in [
        MdlError::Deadlock,
        MdlError::LockWaitTimeout,
        MdlError::QueryInterrupted,
    ] {
        writeln!(got, "{}", crate::sql::SqlError::from(e)).unwrap();
    }
    expect![[r#"
        IX   MDL_INTENTION_EXCLUSIVE INTENTION_EXCLUSIVE
        S    MDL_SHARED SHARED
        SH   MDL_SHARED_HIGH_PRIO SHARED_HIGH_PRIO
        SR   MDL_SHARED_READ SHARED_READ
        SW   MDL_SHARED_WRITE SHARED_WRITE
        SWLP MDL_SHARED_WRITE_LOW_PRIO SHARED_WRITE_LOW_PRIO
        SU   MDL_SHARED_UPGRADABLE SHARED_UPGRADABLE
        SRO  MDL_SHARED_READ_ONLY SHARED_READ_ONLY
        SNW  MDL_SHARED_NO_WRITE SHARED_NO_WRITE
        SNRW MDL_SHARED_NO_READ_WRITE SHARED_NO_READ_WRITE
        X    MDL_EXCLUSIVE EXCLUSIVE
        MDL_STATEMENT STATEMENT
        MDL_TRANSACTION TRANSACTION
        MDL_EXPLICIT EXPLICIT
        GLOBAL: Waiting for global read lock
        BACKUP LOCK: Waiting for backup lock
        SCHEMA db: Waiting for schema metadata lock
        TABLE db.t: Waiting for table metadata lock
        COMMIT: Waiting for commit lock
        ERROR 1213 (40001): Deadlock found when trying to get lock; try restarting transaction
        ERROR 1205 (HY000): Lock wait timeout exceeded; try restarting transaction
        ERROR 1317 (70100): Query execution was interrupted
    "#]]
    .assert_eq(&got);
}

/// Random sessions against one manager: invariants after every step, every waiter
/// woken exactly once, everything released at the end, and the same trace twice.
#[test]
fn random_sessions_keep_invariants() {
    for seed in 0..300 {
        let first = random_run(seed);
        assert_eq!(first, random_run(seed), "reproduce with seed={seed}");
    }
}

fn random_run(seed: u64) -> String {
    let mut rng = SimRng::stream(seed, "mdl-test");
    let mut mdl = MdlManager::new();
    if rng.chance(1, 3) {
        mdl.max_write_lock_count = 1 + rng.below(3);
    }
    let keys = [
        MdlKey::global(),
        MdlKey::schema("db"),
        MdlKey::table("db", "t1"),
        MdlKey::table("db", "t2"),
    ];
    let mut now = Tick::ZERO;
    let mut waiting: BTreeMap<MdlContextId, MdlRequestId> = BTreeMap::new();
    let mut trace = String::new();
    let pick = |rng: &mut SimRng, n: usize| rng.below(n as u64) as usize;
    for step in 0..200 {
        let ctx = MdlContextId(rng.below(6) as u32);
        let mut wakeups = Wakeups::default();
        let note = |trace: &mut String, w: &str| writeln!(trace, "{step} {ctx:?} {w}").unwrap();
        if let Some(&request) = waiting.get(&ctx) {
            match rng.below(4) {
                0 => wakeups = mdl.cancel(request, MdlError::QueryInterrupted),
                1 => {
                    now += Tick::from_secs(rng.below(4));
                    wakeups = mdl.expire(now);
                }
                _ => {}
            }
        } else {
            let tickets = mdl.tickets_of(ctx);
            match rng.below(8) {
                0..=3 => {
                    let key = keys[pick(&mut rng, keys.len())].clone();
                    let types: Vec<MdlType> = MdlType::ALL
                        .into_iter()
                        .filter(|&t| key.namespace().strategy().supports(t))
                        .collect();
                    let ty = types[pick(&mut rng, types.len())];
                    let duration = MdlDuration::ALL[pick(&mut rng, 3)];
                    let timeout = Tick::from_secs(rng.below(5));
                    let (a, w) = mdl.acquire(ctx, MdlRequest::new(key, ty, duration), now, timeout);
                    note(&mut trace, &format!("acquire {ty} {a:?}"));
                    if let Acquire::Waiting(r) = a {
                        waiting.insert(ctx, r);
                    }
                    wakeups = w;
                }
                4 if !tickets.is_empty() => {
                    let t = tickets[pick(&mut rng, tickets.len())];
                    let scoped = mdl.key(mdl.ticket(t).unwrap().lock).namespace().strategy()
                        == MdlLockStrategy::Scoped;
                    let to = if scoped {
                        MdlType::Exclusive
                    } else {
                        [
                            MdlType::SharedNoWrite,
                            MdlType::SharedNoReadWrite,
                            MdlType::Exclusive,
                        ][pick(&mut rng, 3)]
                    };
                    let stronger = has_stronger_or_equal_type(
                        mdl.key(mdl.ticket(t).unwrap().lock).namespace().strategy(),
                        to,
                        mdl.ticket(t).unwrap().mdl_type,
                    );
                    if stronger {
                        let (a, w) = mdl.upgrade(t, to, now, Tick::from_secs(rng.below(5)));
                        note(&mut trace, &format!("upgrade {t:?} {to} {a:?}"));
                        if let Acquire::Waiting(r) = a {
                            waiting.insert(ctx, r);
                        }
                        wakeups = w;
                    }
                }
                5 if !tickets.is_empty() => {
                    let t = tickets[pick(&mut rng, tickets.len())];
                    let held = mdl.ticket(t).unwrap().mdl_type;
                    if matches!(held, MdlType::Exclusive | MdlType::SharedNoWrite) {
                        let strategy = mdl.key(mdl.ticket(t).unwrap().lock).namespace().strategy();
                        let to: Vec<MdlType> = MdlType::ALL
                            .into_iter()
                            .filter(|&x| {
                                strategy.supports(x)
                                    && has_stronger_or_equal_type(strategy, held, x)
                            })
                            .collect();
                        let to = to[pick(&mut rng, to.len())];
                        wakeups = mdl.downgrade(t, to);
                        note(&mut trace, &format!("downgrade {t:?} {to}"));
                    }
                }
                6 if !tickets.is_empty() => {
                    let t = tickets[pick(&mut rng, tickets.len())];
                    wakeups = mdl.release(t);
                }
                _ => {
                    wakeups = if rng.chance(1, 2) {
                        mdl.release_statement_locks(ctx)
                    } else {
                        mdl.release_transactional_locks(ctx)
                    };
                }
            }
        }
        for g in &wakeups.granted {
            assert_eq!(
                waiting.remove(&g.ctx),
                Some(g.request),
                "seed={seed} step={step}"
            );
            writeln!(trace, "  granted {g:?}").unwrap();
        }
        for a in &wakeups.aborted {
            assert_eq!(
                waiting.remove(&a.ctx),
                Some(a.request),
                "seed={seed} step={step}"
            );
            writeln!(trace, "  aborted {a:?}").unwrap();
        }
        for c in 0..6 {
            let c = MdlContextId(c);
            assert_eq!(
                mdl.waiting_request(c),
                waiting.get(&c).copied(),
                "seed={seed} step={step}"
            );
        }
        if let Err(e) = mdl.validate() {
            panic!("seed={seed} step={step}: {e}\n{trace}");
        }
    }
    // Quiesce: every session disconnects; nothing may be left behind.
    for c in 0..6 {
        let w = mdl.release_all(MdlContextId(c));
        waiting.remove(&MdlContextId(c));
        for g in &w.granted {
            assert_eq!(waiting.remove(&g.ctx), Some(g.request), "seed={seed}");
        }
        assert!(w.aborted.is_empty());
        mdl.validate().unwrap();
    }
    assert!(mdl.metadata_locks().is_empty(), "seed={seed}");
    assert_eq!(mdl.next_deadline(), None);
    trace
}
