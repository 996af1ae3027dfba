use super::*;
use crate::model::knobs::Knobs;
use crate::model::link::LinkState;
use crate::model::remote::protocol::MapPatch;
use crate::model::runner::{Engines, Runner};

const SCENARIO: &str = "drop-table-demo";
const COMPARED: &str = "mysql-8.0.23";

/// Two hosts joined as `worker::entry` joins the workers: `a` the page's, `b` the
/// compare engine's; the page's side draws every patch at once.
struct Pair {
    a: Host,
    b: Host,
    t: f64,
    /// Frames of pane 1 the page got with a map patch, and with a snapshot.
    pane1_maps: usize,
    pane1_snapshots: usize,
}

impl Pair {
    fn new() -> Pair {
        let mut a = Host::new();
        a.allow_partner();
        let mut pair = Pair {
            a,
            b: Host::new(),
            t: 0.0,
            pane1_maps: 0,
            pane1_snapshots: 0,
        };
        pair.page(Command::Open {
            scenario: SCENARIO.into(),
            own: None,
            profile: "mysql-5.7".into(),
            knobs: Knobs::default(),
            generation: 1,
        });
        for pane in [0, 1] {
            pair.page(Command::View {
                pane,
                width: 300,
                dpr: 1.0,
                dark: false,
            });
        }
        pair
    }

    /// What the page sends worker A; what A has for B then goes to B.
    fn page(&mut self, c: Command) {
        self.a.handle(c, &|| 0.0);
        self.post();
    }

    fn post(&mut self) {
        for c in self.a.take_partner_commands() {
            self.b.handle(c, &|| 0.0);
        }
    }

    /// One timer frame of each worker (the test's clock stands still: every budget
    /// is unbounded); the frames A posts to the page, its own and B's forwarded.
    fn frame(&mut self) -> Vec<Frame> {
        self.t += 16.0;
        let mut out = Vec::new();
        if let Some((f, _)) = self.a.frame(16.0, self.t, &|| 0.0) {
            out.push(f);
        }
        self.post();
        if let Some((f, px)) = self.b.frame(16.0, self.t, &|| 0.0) {
            if let Some((g, rows)) = self.a.partner_frame(f, px) {
                let patch = g.panes[1].map.as_ref();
                assert_eq!(patch.map_or(0, MapPatch::byte_len), rows[1].len());
                self.pane1_maps += usize::from(patch.is_some());
                self.pane1_snapshots += usize::from(g.panes[1].snapshot.is_some());
                out.push(g);
            }
        }
        for f in &out {
            if f.panes.iter().any(|p| p.map.is_some()) {
                self.page(Command::Drawn);
            }
        }
        out
    }

    fn frames(&mut self, n: usize) -> Vec<Frame> {
        (0..n).flat_map(|_| self.frame()).collect()
    }

    /// Pauses and runs frames until the compare engine is at the main engine's
    /// moment and neither is busy.
    fn settle(&mut self) -> Tick {
        self.page(Command::Clock {
            playing: false,
            speed: 1.0,
        });
        for _ in 0..200 {
            let out = self.frame();
            let (a, b) = (self.main(&self.a), self.main(&self.b));
            let idle = out.last().is_none_or(|f| !f.busy);
            if idle && a.busy().is_none() && b.busy().is_none() && a.sim().now() == b.sim().now() {
                return a.sim().now();
            }
        }
        panic!("the compare engine never caught up");
    }

    fn main<'h>(&self, h: &'h Host) -> &'h Runner {
        h.engines().expect("engines").main()
    }
}

/// The compare engine as compare mode on one thread would have it: `COMPARED` with
/// the main engine's inputs, run to `t`.
fn beside(main: &Runner, t: Tick) -> u64 {
    let mut r = Runner::starting(SCENARIO, None, COMPARED, &Knobs::default(), 1).expect("builds");
    r.restore(main.inputs().to_vec(), Vec::new(), t);
    let mut e = Engines::new(r);
    e.settle();
    assert_eq!(e.main().sim().now(), t);
    e.main().sim().trace_hash()
}

#[test]
fn the_compare_engine_in_its_own_worker_follows_the_main_engines_moment_and_inputs() {
    let mut p = Pair::new();
    p.frames(40);
    assert!(p.a.partner_wanted().is_none());
    p.page(Command::Compare(Some(COMPARED.into())));
    assert!(p.a.partner_wanted().is_some());
    assert_eq!(
        p.a.engines().unwrap().panes.len(),
        1,
        "not beside the main engine"
    );
    // Every frame of A has two panes from now on: the page keeps pane 1.
    let frames = p.frames(60);
    assert!(frames.iter().all(|f| f.panes.len() == 2));
    p.page(Command::Submit {
        ask: 1,
        session: 0,
        sql: "DROP TABLE t1".into(),
    });
    p.frames(60);
    let t = p.settle();
    assert!(t > Tick::ZERO);
    let (a, b) = (p.main(&p.a), p.main(&p.b));
    assert_eq!(b.profile(), COMPARED);
    assert_eq!(b.inputs(), a.inputs(), "the statement at the same tick");
    assert_eq!(b.sim().trace_hash(), beside(a, t));
    assert!(
        p.pane1_maps > 0 && p.pane1_snapshots > 0,
        "the page saw pane 1"
    );
}

#[test]
fn a_seek_back_then_a_statement_branches_both_engines_history_alike() {
    let mut p = Pair::new();
    p.page(Command::Compare(Some(COMPARED.into())));
    p.frames(40);
    p.page(Command::Submit {
        ask: 1,
        session: 0,
        sql: "DROP TABLE t1".into(),
    });
    p.frames(80);
    p.settle();
    let dropped_at = p.main(&p.a).inputs()[0].at;
    assert!(dropped_at > Tick::ZERO);
    assert_eq!(p.main(&p.b).inputs().len(), 1, "the DROP applied there too");
    // Typed in the past, before the compare engine has heard of the seek: the DROP
    // it has applied is undone there as the main engine drops it.
    p.page(Command::Seek(Tick(dropped_at.as_ns() / 2)));
    p.page(Command::Submit {
        ask: 2,
        session: 0,
        sql: "SELECT 1".into(),
    });
    p.page(Command::Clock {
        playing: true,
        speed: 1.0,
    });
    p.frames(40);
    let t = p.settle();
    let (a, b) = (p.main(&p.a), p.main(&p.b));
    assert!(a
        .inputs()
        .iter()
        .all(|i| !format!("{:?}", i.kind).contains("DROP")));
    assert_eq!(b.inputs(), a.inputs());
    assert_eq!(b.sim().trace_hash(), beside(a, t));
}

#[test]
fn pane_1s_tooltip_comes_from_the_compare_engines_worker_and_the_link_names_it() {
    let mut p = Pair::new();
    p.page(Command::Compare(Some(COMPARED.into())));
    p.frames(10);
    p.settle();
    p.page(Command::Inspect {
        ask: 7,
        pane: 1,
        x: 20.0,
        y: 30.0,
        width: 300.0,
    });
    p.page(Command::Link {
        ask: 8,
        layout: None,
    });
    let replies: Vec<Reply> = p.frames(5).into_iter().flat_map(|f| f.replies).collect();
    let tooltip = replies.iter().find_map(|r| match r {
        Reply::Inspected { ask: 7, text } => Some(text.clone()),
        _ => None,
    });
    assert!(tooltip.expect("answered").is_some_and(|t| !t.is_empty()));
    let link = replies.iter().find_map(|r| match r {
        Reply::Link {
            ask: 8, encoded, ..
        } => encoded.clone(),
        _ => None,
    });
    let link = LinkState::decode(&link.expect("linked")).expect("decodes");
    assert_eq!(link.compare.as_deref(), Some(COMPARED));
    // Compare mode off: the worker is no longer wanted, its late frames dropped.
    p.page(Command::Compare(None));
    assert!(p.a.partner_wanted().is_none());
    let late = p.b.frame(16.0, 1e6, &|| 0.0);
    if let Some((f, px)) = late {
        assert!(p.a.partner_frame(f, px).is_none());
    }
}

#[test]
fn a_compare_engine_that_cannot_start_ends_compare_mode_with_why() {
    let mut p = Pair::new();
    p.page(Command::Compare(Some("mysql-0.1".into())));
    let replies: Vec<Reply> = p.frames(5).into_iter().flat_map(|f| f.replies).collect();
    assert!(
        replies
            .iter()
            .any(|r| matches!(r, Reply::CompareFailed(e) if e.contains("mysql-0.1"))),
        "{replies:?}"
    );
    assert!(p.a.partner_wanted().is_none());
}

#[test]
fn the_main_engine_waits_for_a_compare_engine_that_falls_behind() {
    let mut p = Pair::new();
    p.page(Command::Compare(Some(COMPARED.into())));
    p.frames(40);
    let behind = p.main(&p.b).sim().now();
    assert!(behind > Tick::ZERO, "the compare engine runs");
    // Its worker stalls: only the main engine's frames run.
    for _ in 0..30 {
        p.t += 16.0;
        let _ = p.a.frame(16.0, p.t, &|| 0.0);
        p.post();
    }
    let ahead = p.main(&p.a).sim().now();
    let slack = Tick::from_ms(FOLLOW_SLACK_MS as u64);
    assert!(ahead <= behind + slack, "{ahead} against {behind}");
    // It resumes: both move on.
    p.frames(10);
    assert!(p.main(&p.a).sim().now() > ahead);
    assert!(p.main(&p.b).sim().now() > behind);
}

#[test]
fn a_compare_engines_worker_that_stops_leaves_both_engines_in_one_with_a_notice() {
    let mut p = Pair::new();
    p.page(Command::Compare(Some(COMPARED.into())));
    p.frames(20);
    p.a.partner_failed("the compare engine's worker stopped: out of memory".into());
    assert!(p.a.partner_wanted().is_none());
    let engines = p.a.engines().expect("engines");
    assert_eq!(
        engines.panes.len(),
        2,
        "the compare engine beside the main one"
    );
    assert_eq!(engines.panes[1].profile(), COMPARED);
    let replies: Vec<Reply> = p.frames(3).into_iter().flat_map(|f| f.replies).collect();
    assert!(
        replies.iter().any(|r| matches!(r, Reply::Notice(n) if n.contains("out of memory") && n.contains("one worker"))),
        "{replies:?}"
    );
    // Compare mode asked again stays in this worker.
    p.page(Command::Compare(Some("mysql-8.4".into())));
    assert!(p.a.partner_wanted().is_none());
}
