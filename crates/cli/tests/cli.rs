//! The CLI as users meet it: a process with arguments, stdout and an exit code.

use std::process::Command;

fn ddlscope(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ddlscope"))
        .args(args)
        .output()
        .expect("run ddlscope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn csv_has_the_operators_column_names_and_one_row_per_second() {
    let (code, out, err) = ddlscope(&[
        "run",
        "drop-table-demo",
        "--seconds",
        "12",
        "--format",
        "csv",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[0], "t_s");
    for c in [
        "Innodb_buffer_pool_pages_total",
        "Innodb_buffer_pool_pages_free",
        "Innodb_buffer_pool_reads",
        "qps",
        "latency_p95_ms",
    ] {
        assert!(header.contains(&c), "missing {c}");
    }
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 12);
    assert!(rows.iter().all(|r| r.len() == header.len()));
    assert_eq!(rows[11][0], "12");
    // The scenario drops t1 at 10 s: the narration says so on stderr.
    assert!(
        err.contains("DROP TABLE t1") && err.contains("Query OK"),
        "{err}"
    );
    let free = header
        .iter()
        .position(|c| *c == "Innodb_buffer_pool_pages_free")
        .unwrap();
    let free_at = |s: usize| rows[s - 1][free].parse::<u64>().unwrap();
    assert!(
        free_at(11) > free_at(9) + 50_000,
        "5.7 frees t1's pages at once: {} -> {}",
        free_at(9),
        free_at(11)
    );
}

#[test]
fn json_lines_parse_and_the_profile_can_be_switched() {
    let (code, out, err) = ddlscope(&[
        "run",
        "--profile",
        "mysql-8.0.23",
        "--seconds",
        "12",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 12);
    assert!(
        rows[10]["pages_stale"].as_u64().unwrap() > 10_000,
        "8.0.23 leaves stale pages: {}",
        rows[10]
    );
    assert!(err.contains("version 1"), "{err}");
}

#[test]
fn same_seed_same_output() {
    let a = ddlscope(&["run", "--seconds", "5", "--format", "csv", "--seed", "9"]);
    let b = ddlscope(&["run", "--seconds", "5", "--format", "csv", "--seed", "9"]);
    assert_eq!(a.1, b.1);
}

#[test]
fn bad_input_gets_a_clear_error_and_exit_code_2() {
    let (code, _, err) = ddlscope(&["run", "no-such-scenario"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown scenario 'no-such-scenario'") && err.contains("drop-table-demo"),
        "{err}"
    );
    let (code, _, err) = ddlscope(&["run", "--profile", "mysql-9"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown engine profile 'mysql-9'"), "{err}");
    let (code, _, err) = ddlscope(&["run", "--at", "5:DROP TABLEE t1"]);
    assert_eq!(code, 2);
    assert!(err.contains("ERROR 1064 (42000)"), "{err}");
    let (code, _, err) = ddlscope(&["run", "/nonexistent/x.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read scenario file"), "{err}");
    let (code, _, err) = ddlscope(&["run", "--format", "xml"]);
    assert_ne!(code, 0);
    assert!(err.contains("xml"), "{err}");
}

#[test]
fn list_names_the_builtins() {
    let (code, out, _) = ddlscope(&["list"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("drop-table-demo")
            && out.contains("mysql-5.7")
            && out.contains("mysql-8.0.23")
    );
}

#[test]
fn bench_reports_its_figures_as_json() {
    let (code, out, err) = ddlscope(&["bench", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    for key in [
        "exact_lru_accesses_per_s",
        "exact_lru_miss_ratio",
        "innodb_lru_accesses_per_s",
        "innodb_lru_miss_ratio",
        "bytes_per_page",
        "realtime_factor",
        "i1_steady_realtime_factor",
        "i1_played_realtime_factor",
        "evict_pass_vs_sweep_ratio",
        "i1_build_ms",
        "i1_assemble_ms",
    ] {
        assert!(v[key].as_f64().is_some_and(|x| x > 0.0), "{key} in {out}");
    }
    // The descriptors and the page hash fit 32 bytes a page (issue 15).
    let bytes = v["bytes_per_page"].as_f64().unwrap();
    assert!(bytes <= 32.0, "{bytes} bytes a page");
    // The generated trace has the reference shape: about 21% of accesses miss (the pool
    // never fills, so every miss is a first touch).
    let miss = v["exact_lru_miss_ratio"].as_f64().unwrap();
    assert!((0.20..0.22).contains(&miss), "{miss}");
    let (code, _, err) = ddlscope(&["bench", "--trace", "/nonexistent/trace.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read trace"), "{err}");
}

#[test]
fn bench_times_the_real_time_run_alone_for_bench_web() {
    let (code, out, err) = ddlscope(&["bench", "--realtime-only", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let mut keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "i1_played_realtime_factor",
            "i1_steady_realtime_factor",
            "realtime_factor"
        ],
        "{out}"
    );
    for key in keys {
        assert!(v[key].as_f64().is_some_and(|x| x > 0.0), "{key} in {out}");
    }
    let (code, _, err) = ddlscope(&["bench", "--realtime-only", "--web", "r.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
}

fn script_path(name: &str) -> String {
    format!(
        "{}/../../assets/scripts/{name}.script",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn script_json_has_the_issue_shape_and_shows_the_i4_wait() {
    let (code, out, err) = ddlscope(&[
        "script",
        &script_path("i4-create-index"),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let statements = v["statements"].as_array().unwrap();
    assert_eq!(statements.len(), 9);
    for s in statements {
        for key in [
            "session",
            "sql",
            "issued_at_ms",
            "finished_at_ms",
            "outcome",
            "error_code",
            "error_message",
            "states_seen",
        ] {
            assert!(s.get(key).is_some(), "{key} missing in {s}");
        }
    }
    let ddl = &statements[2];
    assert_eq!(ddl["sql"], "CREATE INDEX idx_kc ON t (k, c)");
    assert_eq!(ddl["session"], "s2");
    assert_eq!(ddl["outcome"], "ok");
    // It waited from 1 s until the COMMIT at 4 s.
    assert!(ddl["finished_at_ms"].as_u64().unwrap() >= 4000, "{ddl}");
    assert!(ddl["states_seen"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s == "Waiting for table metadata lock"));
    assert!(v["metadata_locks"].as_array().unwrap().is_empty());
}

#[test]
fn script_reports_statements_still_waiting_and_their_locks() {
    let dir = std::env::temp_dir().join(format!("ddlscope-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("waiting.script");
    std::fs::write(
        &file,
        "# an open transaction and a DROP that waits for it\n\
         table t rows=1000\n\
         at 0ms s1: BEGIN\n\
         at 10ms s1: SELECT * FROM t WHERE id = 1\n\
         at 100ms s2: DROP TABLE t\n\
         run 1s\n",
    )
    .unwrap();
    let (code, out, err) = ddlscope(&["script", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let drop = &v["statements"][2];
    assert_eq!(drop["outcome"], "waiting");
    assert!(drop["finished_at_ms"].is_null());
    let locks = v["metadata_locks"].as_array().unwrap();
    assert!(locks.iter().any(|l| l["LOCK_TYPE"] == "SHARED_READ"
        && l["LOCK_STATUS"] == "GRANTED"
        && l["SESSION"] == "s1"));
    assert!(locks.iter().any(|l| l["LOCK_TYPE"] == "EXCLUSIVE"
        && l["LOCK_STATUS"] == "PENDING"
        && l["SESSION"] == "s2"));
    // For people: the same, as the mysql client prints it.
    let (code, out, _) = ddlscope(&["script", file.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        out.contains("[100 ms -> still waiting] s2> DROP TABLE t"),
        "{out}"
    );
    assert!(
        out.contains("| TABLE       | test          | t           | EXCLUSIVE"),
        "{out}"
    );
    // A malformed script is refused with its line.
    std::fs::write(&file, "table t rows=10\nat soon s1: SELECT 1\n").unwrap();
    let (code, _, err) = ddlscope(&["script", file.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("line 2: malformed time 'soon'"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs ddlscope with its stdout a pipe whose reader is already gone (as behind
/// `| head` once head has its lines): it must stop quietly, with no panic.
fn ddlscope_into_closed_pipe(args: &[&str]) -> (i32, String) {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ddlscope"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ddlscope");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for ddlscope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    for args in [
        &["list"][..],
        &["run", "steady-oltp-rw", "--seconds", "3", "--format", "csv"][..],
        &["script", "../../assets/scripts/drop-table.script"][..],
    ] {
        let (code, err) = ddlscope_into_closed_pipe(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("error"), "{args:?}: {err}");
    }
}

/// A PNG's pixels, palette expanded to RGB(A): (width, height, bytes per pixel, data).
fn decode_png(path: &std::path::Path) -> (u32, u32, usize, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, info.color_type.samples(), buf)
}

#[test]
fn a_poster_is_the_maps_pixels_at_that_moment_as_a_png() {
    let dir = std::env::temp_dir().join(format!("ddlscope-poster-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let light = dir.join("light.png");
    let dark = dir.join("dark.png");
    for (file, theme) in [(&light, "light"), (&dark, "dark")] {
        let (code, _, err) = ddlscope(&[
            "poster",
            "drop-table-demo",
            "--at",
            "2",
            "--width",
            "240",
            "--theme",
            theme,
            "-o",
            file.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let (w, h, bpp, px) = decode_png(&light);
    let instances = ddlscope_engine::Sim::builtin("drop-table-demo", None)
        .unwrap()
        .pool()
        .n_instances();
    assert_eq!(
        (w, h),
        (240, ddlscope_map::css_height(instances).round() as u32)
    );
    // The first row is the theme's background; t1 (orange) and t2 (blue) both show.
    let colour = |c: [u8; 3]| px.chunks_exact(bpp).filter(|p| p[..3] == c[..]).count();
    assert_eq!(&px[..3], &ddlscope_map::Theme::LIGHT.background[..]);
    for space in [1, 2] {
        let c = ddlscope_map::theme::space_colour(ddlscope_engine::SpaceId(space));
        assert!(colour(c) > 200, "space {space}");
    }
    let (_, _, bpp_dark, dark_px) = decode_png(&dark);
    assert_eq!(&dark_px[..3], &ddlscope_map::Theme::DARK.background[..]);
    assert!(bpp_dark >= 3);
    // Indexed: a few dozen colours make a small file.
    assert!(std::fs::metadata(&light).unwrap().len() < 40_000);
    let (code, _, err) = ddlscope(&["poster", "--width", "9", "-o", "x.png"]);
    assert_eq!(code, 2);
    assert!(err.contains("--width 9: from 16 to 4096"), "{err}");
    let (code, _, err) = ddlscope(&["poster", "no-such", "-o", "x.png"]);
    assert_eq!(code, 2);
    assert!(err.contains("no-such"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_poster_of_a_shared_link_is_that_moment() {
    use ddlscope_engine::Tick;
    use ddlscope_moment::{JournalEntry, Knobs, Moment};
    let dir = std::env::temp_dir().join(format!("ddlscope-poster-link-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let poster = |what: &str, name: &str, more: &[&str]| -> Vec<u8> {
        let file = dir.join(name);
        let mut args = vec![
            "poster",
            what,
            "--width",
            "240",
            "-o",
            file.to_str().unwrap(),
        ];
        args.extend_from_slice(more);
        let (code, _, err) = ddlscope(&args);
        assert_eq!(code, 0, "{what}: {err}");
        std::fs::read(&file).unwrap()
    };
    // The scenario's own script at 8 s, as a link: the built-in moment, byte for byte.
    let scripted = Moment {
        scenario: "drop-table-demo".into(),
        own: None,
        engine: "mysql-5.7".into(),
        compare: None,
        knobs: Knobs {
            script: Some(true),
            ..Knobs::default()
        },
        journal: Vec::new(),
        t: Tick::from_secs(8),
    };
    let url = format!(
        "https://example.org/ddlscope/#{}&layout=map",
        scripted.to_item()
    );
    assert_eq!(
        poster(&url, "scripted.png", &[]),
        poster(
            "drop-table-demo",
            "builtin.png",
            &["--profile", "mysql-5.7", "--at", "8"]
        )
    );
    // The sandbox with a DROP typed at 0.7 s: the whole address and its fragment draw
    // the same picture, and it is not the picture without the DROP.
    let quiet = Moment {
        knobs: Knobs::default(),
        t: Tick::from_ms(2_500),
        ..scripted
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
    let item = dropped.to_item();
    let whole = poster(&format!("http://127.0.0.1:8080/#{item}"), "whole.png", &[]);
    assert_eq!(whole, poster(&format!("#{item}"), "fragment.png", &[]));
    assert_ne!(
        whole,
        poster(&format!("#{}", quiet.to_item()), "quiet.png", &[])
    );
    // A link that cannot be read says why; --at cannot move a link's moment.
    for (link, more, said) in [
        (
            "#v1.AAAA",
            &[][..],
            "This link is cut short or damaged (the state ends early)",
        ),
        (
            "https://example.org/#scenario=drop-table-demo",
            &[][..],
            "no state (v1.…) in it",
        ),
        ("#v9.abc", &[][..], "made by a newer ddlscope"),
        (
            &*format!("#{item}"),
            &["--at", "3"][..],
            "a link is its own moment",
        ),
        (
            &*format!("#{item}"),
            &["--profile", "mysql-8.0.23"][..],
            "this link's engines are mysql-5.7",
        ),
    ] {
        let mut args = vec!["poster", link, "-o", "x.png"];
        args.extend_from_slice(more);
        let (code, _, err) = ddlscope(&args);
        assert_eq!(code, 2, "{link}");
        assert!(err.contains(said), "{link}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
