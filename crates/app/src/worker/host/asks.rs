//! The asks a page's link, Export menu and map tooltip make of the worker, answered
//! from the host's engines exactly as the model answers them of engines run
//! directly.

use super::*;
use crate::model::export::TextExport;
use crate::model::remote::protocol::{decode_command, encode_command, LinkJson, PROTOCOL_VERSION};

/// A run driven directly (no host) with something typed: a DROP at 0.5 s, paused at 2 s.
fn reference() -> Engines {
    let mut r = Runner::new("drop-table-demo", "mysql-5.7", 0).expect("builtin");
    r.run_to(Tick::from_ms(500), f64::INFINITY, &|| 0.0);
    let s = r.connect();
    r.submit(s, "DROP TABLE t1").expect("accepted");
    r.run_to(Tick::from_secs(2), f64::INFINITY, &|| 0.0);
    r.set_clock(false, 1.0);
    r.digest();
    Engines::new(r)
}

/// Runs frames until the host's engines settle, collecting every reply.
fn settle(h: &mut Host) -> Vec<Reply> {
    let mut replies = Vec::new();
    for i in 0..2000 {
        if let Some((f, _)) = h.frame(16.0, i as f64 * 16.0, &|| 0.0) {
            replies.extend(f.replies);
            if !f.busy && h.engines().is_some_and(|e| e.busy().is_none()) {
                return replies;
            }
        }
    }
    panic!("the host never settled");
}

/// The replies to what `c` asks, after one more frame.
fn ask(h: &mut Host, c: Command) -> Vec<Reply> {
    h.handle(
        decode_command(&encode_command(&c)).expect("decodes"),
        &|| 0.0,
    );
    let (f, _) = h
        .frame(16.0, 1e6, &|| 0.0)
        .expect("a frame with the answer");
    f.replies
}

/// A host that opened `link` from its bytes, settled.
fn opened(link: &LinkState) -> Host {
    let mut h = Host::new();
    let c = Command::OpenLink {
        link: LinkJson(link.clone()),
        generation: 0,
    };
    h.handle(
        decode_command(&encode_command(&c)).expect("decodes"),
        &|| 0.0,
    );
    let replies = settle(&mut h);
    assert!(
        !replies.iter().any(|r| matches!(r, Reply::LinkFailed(_))),
        "{replies:?}"
    );
    h
}

#[test]
fn a_link_opens_in_the_worker_at_its_tick_and_comes_back_the_same() {
    let page = reference();
    let link = replay::capture(&page, &PanelLayout::default());
    assert_eq!(link.t, Tick::from_secs(2));
    assert_eq!(link.journal.len(), 2, "the connect and the DROP");
    let mut h = opened(&link);
    let main = h.engines().expect("engines").main();
    assert_eq!(main.sim().now(), Tick::from_secs(2));
    assert_eq!(main.sim().samples(), page.main().sim().samples());
    match ask(
        &mut h,
        Command::Link {
            ask: 3,
            layout: None,
        },
    )
    .as_slice()
    {
        [Reply::Link {
            ask: 3,
            encoded,
            run,
        }] => {
            assert_eq!(encoded.as_deref(), Some(link.encode().as_str()));
            assert_eq!(*run, link.run_key(), "the run key of the state sent");
        }
        other => panic!("{other:?}"),
    }
    // The page's panels go into the link the worker encodes.
    let layout = Some("map,tps".to_string());
    match ask(
        &mut h,
        Command::Link {
            ask: 4,
            layout: layout.clone(),
        },
    )
    .as_slice()
    {
        [Reply::Link {
            ask: 4,
            encoded: Some(e),
            ..
        }] => {
            let back = LinkState::decode(e).expect("decodes");
            assert_eq!(back, LinkState { layout, ..link });
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn exports_from_the_worker_are_the_pages_bytes() {
    let page = reference();
    let mut h = opened(&replay::capture(&page, &PanelLayout::default()));
    for (i, kind) in [
        TextExport::MetricsCsv,
        TextExport::MetricsJson,
        TextExport::Events,
        TextExport::Script,
    ]
    .into_iter()
    .enumerate()
    {
        let ask_no = 10 + i as u32;
        let want = kind.file(page.main());
        assert!(!want.1.is_empty());
        match ask(&mut h, Command::Export { ask: ask_no, kind }).as_slice() {
            [Reply::Exported { ask, result }] => {
                assert_eq!(*ask, ask_no);
                assert_eq!(result.as_ref(), Ok(&want), "{kind:?}");
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn the_tooltip_is_the_frame_under_the_point() {
    let page = reference();
    let mut h = opened(&replay::capture(&page, &PanelLayout::default()));
    let mut found = 0;
    for (n, (x, y)) in [
        (5.0, 2.0),
        (40.0, 30.0),
        (300.0, 40.0),
        (790.0, 60.0),
        (2000.0, 30.0),
    ]
    .into_iter()
    .enumerate()
    {
        let want = tooltip(page.main(), x, y, 800.0);
        found += usize::from(want.is_some());
        let c = Command::Inspect {
            ask: 20 + n as u32,
            pane: 0,
            x,
            y,
            width: 800.0,
        };
        match ask(&mut h, c).as_slice() {
            [Reply::Inspected { text, .. }] => assert_eq!(*text, want, "at ({x}, {y})"),
            other => panic!("{other:?}"),
        }
    }
    assert!(found >= 2, "points on the bands and off them");
    // A pane that is not there has no frame under the pointer.
    let c = Command::Inspect {
        ask: 30,
        pane: 7,
        x: 40.0,
        y: 30.0,
        width: 800.0,
    };
    assert!(matches!(
        ask(&mut h, c).as_slice(),
        [Reply::Inspected {
            ask: 30,
            text: None
        }]
    ));
}

#[test]
fn a_link_the_engine_refuses_says_why_and_opens_the_default() {
    let link = LinkState {
        scenario: "no-such-scenario".into(),
        ..replay::capture(&reference(), &PanelLayout::default())
    };
    let mut h = Host::new();
    h.handle(
        Command::OpenLink {
            link: LinkJson(link),
            generation: 0,
        },
        &|| 0.0,
    );
    let replies = settle(&mut h);
    assert!(
        matches!(replies.as_slice(), [Reply::LinkFailed(e)] if e.contains("no-such-scenario") && e.contains("default scenario")),
        "{replies:?}"
    );
    assert_eq!(
        h.engines().expect("the default").main().scenario(),
        DEFAULT_SCENARIO
    );
}

#[test]
fn asks_before_the_first_engine_are_answered() {
    let mut h = Host::new();
    let mut replies = Vec::new();
    for c in [
        Command::Link {
            ask: 1,
            layout: None,
        },
        Command::Export {
            ask: 2,
            kind: TextExport::Script,
        },
        Command::Inspect {
            ask: 3,
            pane: 0,
            x: 1.0,
            y: 1.0,
            width: 10.0,
        },
    ] {
        h.handle(c, &|| 0.0);
    }
    if let Some((f, _)) = h.frame(16.0, 0.0, &|| 0.0) {
        replies = f.replies;
    }
    assert_eq!(replies.len(), 3);
    assert!(matches!(
        replies[0],
        Reply::Link {
            ask: 1,
            encoded: None,
            run: None
        }
    ));
    assert!(
        matches!(&replies[1], Reply::Exported { ask: 2, result: Err(e) } if e.contains("no server"))
    );
    assert!(matches!(
        replies[2],
        Reply::Inspected { ask: 3, text: None }
    ));
}

#[test]
fn a_message_from_another_build_is_refused_with_the_reason() {
    let mut bytes = encode_command(&Command::Link {
        ask: 1,
        layout: None,
    });
    assert_eq!(bytes[..2], PROTOCOL_VERSION.to_le_bytes());
    bytes[..2].copy_from_slice(&(PROTOCOL_VERSION + 1).to_le_bytes());
    let err = decode_command(&bytes).expect_err("another version");
    assert!(
        err.contains(&format!("protocol version {}", PROTOCOL_VERSION + 1))
            && err.contains("reload"),
        "{err}"
    );
    let mut h = Host::new();
    h.refuse(err.clone());
    let (f, _) = h.frame(16.0, 0.0, &|| 0.0).expect("the refusal is posted");
    assert_eq!(f.replies, [Reply::Refused(err)]);
    // A text's length past the bytes there (and past the limit) is an error, not
    // an allocation.
    let mut long = PROTOCOL_VERSION.to_le_bytes().to_vec();
    long.extend_from_slice(&6u32.to_le_bytes()); // Submit: ask, session, the text
    long.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0]);
    long.extend_from_slice(&u64::MAX.to_le_bytes());
    long.extend_from_slice(b"DROP");
    let err = decode_command(&long).expect_err("too long");
    assert!(err.starts_with("unreadable command: "), "{err}");
}
