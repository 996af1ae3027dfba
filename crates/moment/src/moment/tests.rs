use super::*;

/// The app's frozen first link (`crates/app/src/model/link/tests.rs`): its moment.
const FROZEN_V1: &str = "v1.lZDNSsQwFIVfJdytaenPhA4BF4IFl6IjLoZB0jZobP4maRdS-u7ejOO40I2BwD3nwHcvZ4HYSyuCcsBhCM5nk-i0zAZpHFCQ9lVZiZH5iEedsbxBs3fGi_DjbvMir2oMRuu6CHwB75x-MaoDzsqKQpRyAL5JUx-Un4BPYZYrhXc3Bys08P0CI_J6hAiMWXF-K_0K4jkov4MiUWNUzqLZoDgiBZ7ub292LZlK8tjuyEiu8V-RkjzftQ8tUQMaiQC_sBX7A7v9F7ZuYD1Q6IKw_ZvEGvb15Vj0T1vqDbus8adSsDlGwYs5JpVqScpKnQBghMcLzaDhsH4C";

#[test]
fn the_frozen_v1_link_reads_as_its_moment() {
    let m = Moment::from_link(FROZEN_V1).unwrap();
    assert_eq!(m.scenario, "drop-table-demo");
    assert_eq!(m.engine, "mysql-5.7");
    assert_eq!(m.compare.as_deref(), Some("mysql-8.0.23"));
    assert_eq!(m.knobs.pool_mib, Some(512));
    assert_eq!(m.knobs.seed, Some(42));
    assert!(m.knobs.runs_script());
    assert_eq!(m.t, Tick::from_ms(12_345));
    assert_eq!(m.journal.len(), 3);
    assert_eq!(
        m.journal[0],
        JournalEntry::Connect {
            at: Tick::from_ms(500)
        }
    );
}

#[test]
fn a_whole_address_its_fragment_and_its_item_read_the_same() {
    let item = Moment::from_link(FROZEN_V1).unwrap().to_item();
    let want = Moment::from_link(&item).unwrap();
    for link in [
        format!("https://example.org/ddlscope/#{item}"),
        format!("https://example.org/ddlscope/index.html#{item}&layout=map"),
        format!("#{item}"),
        format!("  {item}\n"),
    ] {
        assert_eq!(Moment::from_link(&link).unwrap(), want, "{link}");
    }
}

#[test]
fn a_link_without_a_state_or_damaged_says_what_is_wrong() {
    let none = Moment::from_link("https://example.org/#scenario=drop-table-demo").unwrap_err();
    assert!(none.to_string().contains("no state (v1.…)"), "{none}");
    let cut = Moment::from_link(&FROZEN_V1[..60]).unwrap_err();
    assert!(
        cut.to_string()
            .starts_with("This link is cut short or damaged"),
        "{cut}"
    );
    let newer = Moment::from_link("#v9.abc").unwrap_err();
    assert!(newer.to_string().contains("newer ddlscope"), "{newer}");
    let late = Moment {
        t: MAX_LINK_TIME + Tick::from_secs(1),
        ..Moment::from_link(FROZEN_V1).unwrap()
    };
    let e = Moment::from_link(&late.to_item()).unwrap_err();
    assert!(e.to_string().contains("virtual time 3601 s"), "{e}");
}

#[test]
fn a_statement_in_the_journal_changes_the_server_it_replays_to() {
    let quiet = Moment {
        scenario: DEFAULT_SCENARIO.into(),
        own: None,
        engine: DEFAULT_PROFILE.into(),
        compare: None,
        knobs: Knobs::default(),
        journal: Vec::new(),
        t: Tick::from_secs(2),
    };
    let session = quiet.replay().unwrap().console_session();
    let dropped = Moment {
        journal: vec![JournalEntry::Submit {
            at: Tick::from_ms(700),
            session,
            sql: "DROP TABLE t1".into(),
        }],
        ..quiet.clone()
    };
    let (a, b) = (quiet.replay().unwrap(), dropped.replay().unwrap());
    assert_eq!((a.now(), b.now()), (Tick::from_secs(2), Tick::from_secs(2)));
    assert!(
        b.pool().pages_free() > a.pool().pages_free(),
        "5.7's DROP frees t1's pages: {} vs {}",
        b.pool().pages_free(),
        a.pool().pages_free()
    );
}
