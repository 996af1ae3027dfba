use super::*;
use crate::model::panel_layout::PanelLayout;

fn sample_state(statements: usize) -> LinkState {
    let mut journal = vec![JournalEntry::Connect {
        at: Tick::from_ms(500),
    }];
    for i in 0..statements {
        journal.push(JournalEntry::Submit {
            at: Tick::from_ms(1000 + 250 * i as u64),
            session: 17 + (i % 2) as u32,
            sql: format!("UPDATE t1 SET k = k + 1 WHERE id = {}", 1000 + i * 37),
        });
    }
    LinkState {
        scenario: "drop-table-demo".into(),
        own: None,
        engine: "mysql-5.7".into(),
        compare: Some("mysql-8.0.23".into()),
        knobs: Knobs {
            pool_mib: Some(512),
            seed: Some(42),
            script: Some(true),
            ..Knobs::default()
        },
        journal,
        branches: vec![Tick::from_secs(3)],
        t: Tick::from_ms(12_345),
        speed: 0.25,
        paused: true,
        panels: vec!["map".into(), "mdl".into()],
        layout: None,
    }
}

#[test]
fn a_state_round_trips_through_its_fragment() {
    let state = sample_state(3);
    let fragment = to_fragment(&state, &[("controls".into(), "minimal".into())]);
    assert!(fragment.starts_with("v1."), "{fragment}");
    let back = parse_fragment(&format!("#{fragment}")).unwrap();
    assert_eq!(back.state, Some(state));
    assert_eq!(back.param("controls"), Some("minimal"));
}

#[test]
fn a_50_statement_session_fits_in_8_kb() {
    let fragment = sample_state(50).encode();
    assert!(fragment.len() < 8 * 1024, "{} bytes", fragment.len());
    // Deflate earns its keep: the JSON is several times longer.
    let json = serde_json::to_vec(&sample_state(50)).unwrap();
    assert!(
        fragment.len() * 3 < json.len(),
        "{} vs {}",
        fragment.len(),
        json.len()
    );
}

/// A link made by the first version of the format. It must keep opening, with this
/// state, in every later version of the page: never regenerate it.
const FROZEN_V1: &str = "v1.lZDNSsQwFIVfJdytaenPhA4BF4IFl6IjLoZB0jZobP4maRdS-u7ejOO40I2BwD3nwHcvZ4HYSyuCcsBhCM5nk-i0zAZpHFCQ9lVZiZH5iEedsbxBs3fGi_DjbvMir2oMRuu6CHwB75x-MaoDzsqKQpRyAL5JUx-Un4BPYZYrhXc3Bys08P0CI_J6hAiMWXF-K_0K4jkov4MiUWNUzqLZoDgiBZ7ub292LZlK8tjuyEiu8V-RkjzftQ8tUQMaiQC_sBX7A7v9F7ZuYD1Q6IKw_ZvEGvb15Vj0T1vqDbus8adSsDlGwYs5JpVqScpKnQBghMcLzaDhsH4C";

#[test]
fn a_frozen_v1_link_keeps_decoding() {
    let state = LinkState::decode(FROZEN_V1).unwrap();
    assert_eq!(state, sample_state(2));
}

#[test]
fn the_frozen_v1_links_panels_open_in_their_order_and_the_rest_close() {
    use crate::model::panel_layout::{Column, PanelId};
    let layout = LinkState::decode(FROZEN_V1).unwrap().panel_layout();
    assert_eq!(layout.column(Column::First), [PanelId::Map, PanelId::Mdl]);
    assert!(layout.column(Column::Second).is_empty());
    assert_eq!(layout.order.len(), PanelId::ALL.len());
}

#[test]
fn a_link_without_panels_opens_the_default_layout() {
    let old = LinkState {
        panels: Vec::new(),
        ..sample_state(1)
    };
    let back = LinkState::decode(&old.encode()).unwrap();
    assert_eq!(back.layout, None);
    assert_eq!(back.panel_layout(), PanelLayout::default());
}

#[test]
fn the_layout_round_trips_and_a_bad_one_is_refused() {
    use crate::model::panel_layout::PanelId;
    let mut layout = PanelLayout::default();
    layout.toggle(PanelId::Latches);
    assert!(layout.step(PanelId::Processlist, true));
    layout.about_open = true;
    let state = LinkState {
        layout: LinkState::layout_param(&layout),
        ..sample_state(2)
    };
    let back = parse_fragment(&to_fragment(&state, &[]))
        .unwrap()
        .state
        .unwrap();
    assert_eq!(back.panel_layout(), layout);
    assert_eq!(
        LinkState::layout_param(&PanelLayout::default()),
        None,
        "the default is not written"
    );
    let bad = LinkState {
        layout: Some("map,pool|tps".into()),
        ..sample_state(0)
    };
    let e = LinkState::decode(&bad.encode()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("This link asks for something out of range: layout: unknown panel 'pool'"),
        "{e}"
    );
}

#[test]
fn every_truncation_of_a_link_is_an_error_or_a_state_never_a_panic() {
    let fragment = sample_state(5).encode();
    for end in 0..fragment.len() {
        let cut = &fragment[..end];
        if let Ok(f) = parse_fragment(cut) {
            // Only the empty fragment and a bare version mark read as "no state".
            assert!(f.state.is_none() || end == fragment.len(), "{cut}");
        }
    }
    let e = LinkState::decode(&fragment[..fragment.len() / 2]).unwrap_err();
    assert!(matches!(e, LinkError::Damaged(_)), "{e:?}");
    assert!(e.to_string().contains("cut short or damaged"), "{e}");
}

/// The browser test loads a few dozen damaged links whole; this reads thousands of
/// them through the decoder: a character changed here and there, or random text.
#[test]
fn damaged_and_random_fragments_are_an_error_or_a_state_never_a_panic() {
    let fragment = sample_state(5).encode();
    let alphabet: Vec<char> =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=&%#v"
            .chars()
            .collect();
    let mut seed: u64 = 12345;
    let mut rand = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    for _ in 0..2_000 {
        let mut chars: Vec<char> = fragment.chars().collect();
        for _ in 0..3 {
            let at = rand(chars.len());
            chars[at] = alphabet[rand(alphabet.len())];
        }
        let changed: String = chars.into_iter().collect();
        let _ = parse_fragment(&changed);
        let random: String = (0..1 + rand(300))
            .map(|_| alphabet[rand(alphabet.len())])
            .collect();
        let _ = parse_fragment(&random);
    }
}

#[test]
fn garbage_unknown_versions_and_oversized_links_say_what_is_wrong() {
    let e = parse_fragment("#v2.AAAA").unwrap_err();
    assert_eq!(e, LinkError::UnknownVersion("v2".into()));
    assert!(e.to_string().contains("newer ddlscope"), "{e}");
    let e = parse_fragment(&format!("#v1.{}", "A".repeat(MAX_FRAGMENT))).unwrap_err();
    assert!(matches!(e, LinkError::TooLong(_)), "{e:?}");
    for junk in [
        "#v1.!!!!",
        "#v1.",
        "#hello",
        "#v1.AAAA&v1.AAAA",
        "#x=%zz",
        "#x=%ff",
    ] {
        assert!(parse_fragment(junk).is_err(), "{junk}");
    }
    // Valid deflate, not a state.
    let e = LinkState::decode(&payload::encode(b"{\"scenario\": 3}")).unwrap_err();
    assert!(matches!(e, LinkError::Malformed(_)), "{e:?}");
}

#[test]
fn a_hostile_state_is_refused_before_it_is_replayed() {
    let mut s = sample_state(1);
    s.t = MAX_LINK_TIME + Tick::SECOND;
    assert!(matches!(
        LinkState::decode(&s.encode()),
        Err(LinkError::Invalid(_))
    ));
    let mut s = sample_state(2);
    s.journal.swap(1, 2);
    let e = LinkState::decode(&s.encode()).unwrap_err();
    assert!(e.to_string().contains("back in time"), "{e}");
    let mut s = sample_state(0);
    s.speed = 1e9;
    assert!(LinkState::decode(&s.encode()).is_err());
}

#[test]
fn plain_parameters_make_a_state_and_others_are_kept_for_their_readers() {
    let f = parse_fragment(
        "#scenario=i4-create-index&engine=mysql-8.0.23&seed=7&script=1&lesson=mdl-queue&step=3",
    )
    .unwrap();
    let s = f.state.clone().unwrap();
    assert_eq!(s.scenario, "i4-create-index");
    assert_eq!(s.engine, "mysql-8.0.23");
    assert_eq!(s.knobs.seed, Some(7));
    assert!(s.knobs.runs_script());
    assert_eq!(f.param("lesson"), Some("mdl-queue"));
    assert_eq!(f.param("step"), Some("3"));
    assert!(parse_fragment("#seed=x").is_err());
    // Over a payload, they override it.
    let f = parse_fragment(&format!(
        "#{}&engine=mysql-8.0.23",
        sample_state(1).encode()
    ))
    .unwrap();
    assert_eq!(f.state.unwrap().engine, "mysql-8.0.23");
    // Parameters alone that are not the state's leave it out: the page's default.
    assert_eq!(parse_fragment("#controls=minimal").unwrap().state, None);
    assert_eq!(parse_fragment("").unwrap(), Fragment::default());
}

#[test]
fn parameters_are_percent_encoded_both_ways() {
    let params = vec![
        (
            "origins".to_string(),
            "https://a.example,https://b.example".to_string(),
        ),
        ("caption".to_string(), "50% & more".to_string()),
    ];
    let fragment = to_fragment(&LinkState::default(), &params);
    assert!(
        fragment.contains("origins=https://a.example,https://b.example"),
        "{fragment}"
    );
    assert!(
        fragment.contains("caption=50%25%20%26%20more"),
        "{fragment}"
    );
    assert_eq!(parse_fragment(&fragment).unwrap().params, params);
}

/// The address of `state` with `params`, as the page gets it from the engines.
fn address(state: &LinkState, params: &[(String, String)]) -> Address {
    Address {
        fragment: to_fragment(state, params),
        run: state.run_key(),
    }
}

#[test]
fn the_address_takes_a_new_input_at_once_and_the_running_clock_every_ten_seconds() {
    let running = LinkState {
        paused: false,
        ..sample_state(2)
    };
    let shown = address(&running, &[]);
    let later = address(
        &LinkState {
            t: Tick::from_secs(20),
            ..running.clone()
        },
        &[],
    );
    assert!(!address_due(&shown, &shown, 60_000.0), "the same fragment");
    assert!(
        !address_due(&shown, &later, 1_000.0),
        "only the clock moved, a second ago"
    );
    assert!(!address_due(&shown, &later, MOMENT_EVERY_MS - 1.0));
    assert!(address_due(&shown, &later, MOMENT_EVERY_MS));
    let paused = |t| {
        address(
            &LinkState {
                t,
                ..sample_state(2)
            },
            &[],
        )
    };
    assert!(
        address_due(&shown, &paused(Tick::from_secs(20)), 1_000.0),
        "paused: an input"
    );
    assert!(
        address_due(
            &paused(Tick::from_secs(20)),
            &paused(Tick::from_secs(21)),
            100.0
        ),
        "a step while paused"
    );
    let typed = LinkState {
        paused: false,
        ..sample_state(3)
    };
    assert!(
        address_due(&shown, &address(&typed, &[]), 1_000.0),
        "a statement"
    );
    let param = address(&running, &[("controls".into(), "minimal".into())]);
    assert!(address_due(&shown, &param, 1_000.0), "a parameter");
    let unread = Address {
        fragment: "garbage".into(),
        run: None,
    };
    assert!(
        address_due(&unread, &shown, 0.0),
        "an address that does not read"
    );
}

#[test]
fn a_run_key_is_the_state_but_its_moment() {
    let running = LinkState {
        paused: false,
        ..sample_state(2)
    };
    let at = |secs| LinkState {
        t: Tick::from_secs(secs),
        ..running.clone()
    };
    assert_eq!(at(20).run_key(), at(90).run_key());
    assert!(at(20).run_key().is_some());
    let other = LinkState {
        speed: running.speed * 2.0,
        ..running.clone()
    };
    assert_ne!(other.run_key(), running.run_key(), "a setting is the run's");
    assert_eq!(
        sample_state(2).run_key(),
        None,
        "paused: its moment was chosen"
    );
}

#[test]
fn the_parameters_of_a_fragment_are_read_without_its_state() {
    let params = vec![("controls".to_string(), "minimal".to_string())];
    let fragment = to_fragment(&sample_state(2), &params);
    assert_eq!(fragment_params(&format!("#{fragment}")).unwrap(), params);
    // A damaged state is not read, so it is no error here.
    assert_eq!(
        fragment_params("v1.@@@&lesson=i1&step=2").unwrap(),
        vec![
            ("lesson".to_string(), "i1".to_string()),
            ("step".to_string(), "2".to_string())
        ]
    );
    assert!(matches!(
        fragment_params("#lesson=i1&junk"),
        Err(LinkError::Malformed(_))
    ));
    assert!(fragment_params("").unwrap().is_empty());
    // An item with '=' is a parameter, whatever its name looks like, for both readers.
    let odd = vec![("v1.k".to_string(), "v".to_string())];
    assert_eq!(fragment_params("v1.k=v").unwrap(), odd);
    assert_eq!(parse_fragment("v1.k=v").unwrap().params, odd);
}

#[test]
fn a_scenario_carried_whole_is_checked_as_a_scenario_file_is() {
    let mut own = ddlscope_engine::Scenario::builtin("drop-table-demo").unwrap();
    own.name = "advise-alter-copy".into();
    let good = LinkState {
        scenario: own.name.clone(),
        own: Some(Box::new(own.clone())),
        ..LinkState::default()
    };
    assert_eq!(LinkState::decode(&good.encode()).unwrap(), good);
    let misnamed = LinkState {
        scenario: "drop-table-demo".into(),
        ..good.clone()
    };
    let e = LinkState::decode(&misnamed.encode())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("called 'advise-alter-copy', not 'drop-table-demo'"),
        "{e}"
    );
    own.buffer_pool.instances = 0;
    let broken = LinkState {
        own: Some(Box::new(own)),
        ..good
    };
    let e = LinkState::decode(&broken.encode()).unwrap_err().to_string();
    assert!(
        e.contains("the link's own scenario 'advise-alter-copy': "),
        "{e}"
    );
}
