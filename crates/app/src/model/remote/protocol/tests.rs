use super::*;
use crate::model::map_pixels::band_infos;
use crate::model::panels::{chart_data, flush_view, latch_view};
use crate::model::runner::Runner;
use ddlscope_engine::WorkloadKind;

/// A runner with something in every part of its snapshot: a DDL waiting behind an
/// open transaction's metadata lock, the log, the marks.
fn busy_runner() -> Runner {
    let mut r = Runner::new("drop-table-demo", "mysql-5.7", 3).expect("builtin");
    let s1 = r.connect();
    let s2 = r.connect();
    r.submit(s1, "BEGIN; SELECT * FROM t1 LIMIT 1")
        .expect("accepted");
    r.run_to(Tick::from_secs(1), f64::INFINITY, &|| 0.0);
    r.submit(s2, "DROP TABLE t1").expect("accepted");
    r.run_to(Tick::from_secs(2), f64::INFINITY, &|| 0.0);
    r.digest();
    r
}

#[test]
fn a_frame_comes_back_as_it_went() {
    let r = busy_runner();
    let snapshot = r.snapshot();
    assert!(!snapshot.mdl.locks.is_empty(), "a lock to carry");
    assert!(!snapshot.processlist.is_empty());
    assert!(!snapshot.marks.is_empty());
    assert!(!r.sim().samples().is_empty(), "samples to carry");
    let frame = Frame {
        generation: 3,
        busy: false,
        handled: 12,
        now: r.sim().now(),
        panes: vec![PaneFrame {
            instances: r.sim().pool().n_instances(),
            snapshot: Some(snapshot),
            map: Some(MapPatch {
                width: 640,
                height: 300,
                dpr: 2.0,
                regions: vec![(0, 300)],
                bands: vec![0, 1],
                infos: band_infos(r.sim()),
                // A 5.7 DROP's scan holding an instance mutex: the engine's LatchId
                // is an adjacently tagged enum, which not every format reads back.
                scans: vec![ScanSpan {
                    instance: 1,
                    space: ddlscope_engine::SpaceId(5),
                    latch: ddlscope_engine::LatchId::BufPool(1),
                    from: 0,
                    to: 4096,
                    t0: Tick::from_ms(1000),
                    t1: Tick::from_ms(1400),
                }],
                now: r.sim().now(),
                engine: (3, r.seeks()),
                complete: true,
            }),
            latches: Some(latch_view(r.sim(), r.latch_spans())),
            flush: Some(flush_view(
                r.sim(),
                r.flush_walks().0,
                r.flush_walks().1,
                &mut Vec::new(),
            )),
            charts: Some(chart_data(&r)),
        }],
        log: Some(r.log()),
        replies: vec![
            Reply::Connected { ask: 1, session: 7 },
            Reply::Submitted {
                ask: 2,
                result: Err("ERROR 1064 (42000): You have an error in your SQL syntax".into()),
            },
            Reply::Notice("carried over".into()),
            Reply::CompareFailed("no".into()),
        ],
        timings: Some(Timings {
            frame_ms: (16.1, 18.5),
            work_ms: (9.0, 12.5),
            frames: 240,
            phases: [6.0, 0.5, 2.0, 1.0, 0.25, 0.1],
            playing: true,
            speed: 1000.0,
            achieved: 31.5,
            pages: 8 << 20,
            engines: 2,
            workers: 2,
        }),
    };
    let bytes = encode_frame(&frame);
    assert_eq!(decode_frame(&bytes), Ok(frame.clone()));
    assert_eq!(
        frame.panes[0].map.as_ref().map(MapPatch::byte_len),
        Some(640 * 300 * 4)
    );
}

#[test]
fn every_command_comes_back_as_it_went() {
    let knobs = Knobs {
        pool_mib: Some(512),
        workload: Some(WorkloadKind::OltpInsert),
        ..Knobs::default()
    };
    let commands = [
        Command::Open {
            scenario: "drop-table-demo".into(),
            own: None,
            profile: "mysql-8.0.23".into(),
            knobs: knobs.clone(),
            generation: 4,
        },
        Command::Open {
            scenario: "advise-alter-copy".into(),
            own: Some(Box::new({
                let mut s = ddlscope_engine::Scenario::builtin("drop-table-demo").unwrap();
                s.name = "advise-alter-copy".into();
                s
            })),
            profile: "mysql-5.7".into(),
            knobs: Knobs::default(),
            generation: 5,
        },
        Command::Compare(Some("mysql-5.7".into())),
        Command::Compare(None),
        Command::Clock {
            playing: true,
            speed: 0.05,
        },
        Command::View {
            pane: 1,
            width: 1200,
            dpr: 1.5,
            dark: true,
        },
        Command::Drawn,
        Command::Connect { ask: 9 },
        Command::Submit {
            ask: 10,
            session: 0,
            sql: "DROP TABLE t1".into(),
        },
        Command::Seek(Tick::from_ms(1500)),
        Command::GoTo(Tick::from_secs(90)),
        Command::Step(false),
        Command::OpenLesson {
            ask: 11,
            lesson: "mdl-queue".into(),
            source: None,
            step: 3,
            variant: 1,
            seed: 2,
            generation: 5,
        },
        Command::Reveal {
            ask: 12,
            lesson: "mdl-queue".into(),
            source: None,
            step: 3,
        },
        Command::Follow {
            to: Tick::from_ms(2500),
            inputs: Some(vec![
                crate::model::runner::Input {
                    at: Tick::from_ms(900),
                    kind: crate::model::runner::InputKind::Connect,
                },
                crate::model::runner::Input {
                    at: Tick::from_ms(1200),
                    kind: crate::model::runner::InputKind::Submit {
                        session: 7,
                        sql: "DROP TABLE t1".into(),
                    },
                },
            ]),
        },
        Command::Follow {
            to: Tick::from_ms(2600),
            inputs: None,
        },
    ];
    for c in commands {
        assert_eq!(decode_command(&encode_command(&c)), Ok(c));
    }
    let failed = Reply::RestartFailed {
        error: "bad".into(),
        scenario: "s".into(),
        profile: "p".into(),
        knobs,
    };
    let lesson = [
        Reply::LessonOpened {
            ask: 11,
            result: Ok(vec![("alter".into(), 9)]),
        },
        Reply::Revealed {
            ask: 12,
            seen: Err("no question".into()),
        },
        Reply::PausedAtMark,
    ];
    let frame = Frame {
        replies: std::iter::once(failed).chain(lesson).collect(),
        ..Frame::default()
    };
    assert_eq!(decode_frame(&encode_frame(&frame)), Ok(frame));
}

#[test]
fn bytes_from_elsewhere_are_an_error_not_a_panic() {
    assert!(decode_command(&[0xff; 3]).is_err());
    assert!(decode_frame(&[1, 2]).is_err());
    let c = encode_command(&Command::Seek(Tick::from_secs(1)));
    assert!(decode_command(&c[..c.len() - 1]).is_err(), "cut short");
}
