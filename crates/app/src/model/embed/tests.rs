use super::*;

fn params(s: &str) -> Vec<(String, String)> {
    crate::model::link::parse_fragment(s).unwrap().params
}

#[test]
fn every_option_reads_and_panels_keep_their_order() {
    let o = EmbedOptions::from_params(&params(
        "controls=full&panels=console,map,chart-tps&start=8&end=12.5&loop=1&autoplay=1&theme=dark&poster=0&origins=https://a.example,http://localhost:8000",
    ))
    .unwrap();
    assert_eq!(o.controls, ControlSet::Full);
    assert_eq!(o.panels, vec!["map", "chart-tps", "console"]);
    assert_eq!(o.start, Some(Tick::from_secs(8)));
    assert_eq!(o.end, Some(Tick::from_ms(12_500)));
    assert!(o.looped && o.autoplay);
    assert_eq!(o.theme, Some(Theme::Dark));
    assert!(o.allows("https://a.example", "https://docs.example"));
    assert!(
        o.allows("https://docs.example", "https://docs.example"),
        "its own origin"
    );
    assert!(!o.allows("https://evil.example", "https://docs.example"));
    assert_eq!(
        EmbedOptions::from_params(&[]).unwrap(),
        EmbedOptions::default()
    );
    assert!(!EmbedOptions::default().allows("https://a.example", "https://b.example"));
}

#[test]
fn a_bad_option_says_which_and_why() {
    for (fragment, says) in [
        ("controls=tiny", "use minimal or full"),
        ("panels=map,flames", "no panel 'flames'"),
        ("start=-1", "virtual seconds"),
        ("start=9&end=3", "not after start"),
        ("theme=pink", "light or dark"),
        ("loop=yes", "use 1 or 0"),
        ("origins=https://a.example/path", "not an origin"),
        ("origins=ftp:x", "not an origin"),
    ] {
        let e = EmbedOptions::from_params(&params(fragment))
            .unwrap_err()
            .to_string();
        assert!(e.contains(says), "{fragment}: {e}");
    }
}

#[test]
fn commands_read_from_json_and_junk_is_refused() {
    assert_eq!(parse_command(r#"{"type":"play"}"#), Ok(Command::Play));
    assert_eq!(parse_command(r#"{"type":"pause"}"#), Ok(Command::Pause));
    assert_eq!(
        parse_command(r#"{"type":"seek","t":8}"#),
        Ok(Command::Seek(Tick::from_secs(8)))
    );
    assert_eq!(
        parse_command(r#"{"type":"speed","x":0.25}"#),
        Ok(Command::Speed(0.25))
    );
    assert_eq!(
        parse_command(r#"{"type":"run","sql":"DROP TABLE t1"}"#),
        Ok(Command::Run {
            session: None,
            sql: "DROP TABLE t1".into()
        })
    );
    for junk in [
        "null",
        "42",
        r#"{"type":"explode"}"#,
        r#"{"type":"seek"}"#,
        r#"{"type":"seek","t":-3}"#,
        r#"{"type":"speed","x":1e9}"#,
        r#"{"type":"run","sql":"  "}"#,
        "{",
    ] {
        assert!(parse_command(junk).is_err(), "{junk}");
    }
}

#[test]
fn error_codes_come_from_the_clients_error_line() {
    assert_eq!(
        error_code("ERROR 1205 (HY000): Lock wait timeout exceeded"),
        Some(1205)
    );
    assert_eq!(error_code("Query OK, 0 rows affected"), None);
}

#[test]
fn a_host_scale_is_read_and_checked() {
    assert_eq!(
        parse_host_scale(r#"{"type":"ddlscope:scale","scale":1.097}"#),
        Some(Ok(1.097))
    );
    assert_eq!(
        parse_host_scale(r#"{"type":"play"}"#),
        None,
        "a command is not a scale"
    );
    assert_eq!(parse_host_scale("\"slide:start\""), None);
    assert_eq!(parse_host_scale("not json"), None);
    for bad in [
        r#"{"type":"ddlscope:scale","scale":0}"#,
        r#"{"type":"ddlscope:scale","scale":9}"#,
    ] {
        let err = parse_host_scale(bad).unwrap().unwrap_err();
        assert!(err.contains("is not 0.25 to 4"), "{err}");
    }
    let err = parse_host_scale(r#"{"type":"ddlscope:scale","scale":"big"}"#)
        .unwrap()
        .unwrap_err();
    assert_eq!(err, "ddlscope:scale: no numeric scale");
}
