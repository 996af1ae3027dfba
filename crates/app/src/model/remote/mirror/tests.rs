use super::*;
use crate::model::knobs::Knobs;
use crate::model::remote::protocol::{decode_frame, encode_frame, Command};
use crate::worker::host::Host;

/// Frames from a host, through their bytes, into `m`, until `want` says enough.
fn pump(
    h: &mut Host,
    m: &mut Mirror<u32>,
    n: usize,
    mut want: impl FnMut(&Received<u32>) -> bool,
) -> Option<Received<u32>> {
    for i in 0..n {
        if let Some((f, _)) = h.frame(16.0, i as f64 * 16.0, &|| 0.0) {
            let got = m.receive(decode_frame(&encode_frame(&f)).expect("decodes"));
            if want(&got) {
                return Some(got);
            }
        }
    }
    None
}

#[test]
fn answers_go_to_their_askers_and_news_to_the_reducer() {
    let mut h = Host::new();
    let mut m: Mirror<u32> = Mirror::default();
    assert!(m.busy && !m.heard, "nothing heard yet: not ready");
    h.handle(
        Command::Open {
            scenario: "drop-table-demo".into(),
            own: None,
            profile: "mysql-5.7".into(),
            knobs: Knobs::default(),
            generation: 4,
        },
        &|| 0.0,
    );
    let got = pump(&mut h, &mut m, 200, |r| {
        r.news.iter().any(|n| matches!(n, News::Snapshot { .. }))
    })
    .expect("a snapshot");
    assert_eq!(got.generation, 4);
    assert!(m.snapshot(0).is_some());
    assert!(m.panes[0].instances > 0);
    pump(&mut h, &mut m, 200, |_| false);
    assert!(!m.busy, "warm");

    // Two asks in flight: each answer finds its own asker (the callback is a tag here).
    let a = m.ask(100);
    let b = m.ask(200);
    assert_ne!(a, b);
    assert_eq!(m.waiting(), 2);
    h.handle(Command::Connect { ask: b }, &|| 0.0);
    h.handle(Command::Connect { ask: a }, &|| 0.0);
    let got = pump(&mut h, &mut m, 1, |_| true).expect("answers");
    let tags: Vec<(u32, u32)> = got
        .answered
        .iter()
        .map(|(tag, r)| match r {
            Reply::Connected { session, .. } => (*tag, *session),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(tags.len(), 2);
    assert_eq!(tags[0].0, 200, "b was asked of the worker first");
    assert_eq!(tags[1].0, 100);
    assert!(
        tags[0].1 < tags[1].1,
        "sessions numbered in the order opened"
    );
    assert_eq!(m.waiting(), 0);

    // A reply nobody waits for becomes what the page says.
    h.handle(Command::Compare(Some("no-such-engine".into())), &|| 0.0);
    let got = pump(&mut h, &mut m, 1, |_| true).expect("a frame");
    assert!(matches!(&got.actions[..], [Action::CompareFailed(_)]));
}

#[test]
fn a_pane_gone_from_the_frame_is_gone_from_the_mirror() {
    let mut h = Host::new();
    let mut m: Mirror<u32> = Mirror::default();
    h.handle(
        Command::Open {
            scenario: "drop-table-demo".into(),
            own: None,
            profile: "mysql-5.7".into(),
            knobs: Knobs::default(),
            generation: 1,
        },
        &|| 0.0,
    );
    h.handle(Command::Compare(Some("mysql-8.0.23".into())), &|| 0.0);
    pump(&mut h, &mut m, 3, |r| r.news.len() >= 2).expect("two snapshots");
    assert_eq!(m.panes.len(), 2);
    h.handle(Command::Compare(None), &|| 0.0);
    pump(&mut h, &mut m, 20, |r| !r.news.is_empty()).expect("a report");
    assert_eq!(m.panes.len(), 1);
}

#[test]
fn a_seek_sent_is_busy_until_a_frame_counts_it() {
    let mut m: Mirror<u32> = Mirror::default();
    let frame = |handled, busy| Frame {
        handled,
        busy,
        ..Frame::default()
    };
    m.sent(&Command::Drawn);
    m.receive(frame(1, false));
    assert!(!m.busy, "settled");
    m.sent(&Command::Seek(ddlscope_engine::Tick::from_secs(2)));
    assert!(m.busy, "at once: the seek may replay");
    m.sent(&Command::Drawn);
    m.receive(frame(1, false));
    assert!(m.busy, "a frame from before the seek does not settle it");
    m.receive(frame(2, true));
    assert!(m.busy, "the worker replays");
    m.receive(frame(3, false));
    assert!(!m.busy, "the worker took the seek and is done");
    m.sent(&Command::Step(true));
    assert!(m.busy, "a step forward may run ten virtual seconds");
    m.receive(frame(4, false));
    assert!(!m.busy, "stepped");
    m.sent(&Command::Clock {
        playing: true,
        speed: 1.0,
    });
    assert!(!m.busy, "the clock keeps nobody waiting");
}
