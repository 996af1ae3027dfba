use super::*;

/// The CLI's golden for I1 at a small size (crates/cli/tests/advise.rs, I1_SMALL).
const GOLDEN: &str = include_str!("../../../../cli/tests/advise/i1-small-drop.json");

/// I1_SMALL's flags as the form holds them.
fn i1_small() -> AdvisorForm {
    let mut form = AdvisorForm::default();
    for (f, v) in [
        ("profile", "mysql-5.7"),
        ("pool", "4G"),
        ("instances", "4"),
        ("ahi", "on"),
        ("fs", "ext4"),
        ("table-size", "1G"),
        ("workload", "oltp_write_only"),
        ("threads", "8"),
        ("ddl", "DROP TABLE big"),
    ] {
        form.set(f, v);
    }
    form.settings = "rpl_semi_sync_master_enabled=ON\n".into();
    form
}

/// Runs the whole advice in budgets of `budget_s`, checking the progress moves on.
fn run(form: &AdvisorForm, budget_s: u64) -> Advice {
    let mut job = AdviceJob::start(form).unwrap();
    let n = job.len();
    let mut last = (0, 0);
    while let Some(p) = job.advance(budget_s).unwrap() {
        assert_eq!(p.of, n);
        assert!((p.playbook, p.seconds) > last, "{p:?} after {last:?}");
        last = (p.playbook, p.seconds);
    }
    assert_eq!(last.0, n, "the progress reached the last playbook");
    job.finish().unwrap()
}

#[test]
fn the_panel_ranks_as_the_cli_golden() {
    let golden: serde_json::Value = serde_json::from_str(GOLDEN).unwrap();
    let golden = golden["playbooks"].as_array().unwrap();
    let advice = run(&i1_small(), 7);
    each_link_opens_its_run(&advice);
    assert_eq!(advice.rows.len(), golden.len());
    for (row, want) in advice.rows.iter().zip(golden) {
        assert_eq!(row.name, want["name"], "rank {}", row.rank);
        assert_eq!(row.rank as u64, want["rank"].as_u64().unwrap());
        assert_eq!(row.summary, want["summary"]);
        let figures = serde_json::to_value(&row.figures).unwrap();
        for (k, v) in figures.as_object().unwrap() {
            assert_eq!(v, &want[k], "{}: {k}", row.name);
        }
    }
}

#[test]
fn refusals_name_the_field() {
    let mut form = i1_small();
    form.set("fs", "zfs");
    let e = AdviceJob::start(&form).err().unwrap();
    assert!(e.starts_with("--fs zfs: must be one of"), "{e}");
    let mut form = i1_small();
    form.settings = "innodb_flush_method=O_DIRECT".into();
    let e = AdviceJob::start(&form).err().unwrap();
    assert!(e.contains("--set innodb_flush_method"), "{e}");
    let mut form = i1_small();
    form.set("ddl", " ");
    let e = AdviceJob::start(&form).err().unwrap();
    assert!(e.starts_with("--ddl: missing"), "{e}");
}

#[test]
fn pasted_show_output_fills_what_the_form_leaves_out() {
    let mut form = AdvisorForm::default();
    form.set("threads", "4");
    form.set("ddl", "DROP TABLE big");
    form.show_variables = "Variable_name\tValue\ninnodb_adaptive_hash_index\tOFF\n\
        innodb_buffer_pool_size\t1073741824\nversion\t8.0.22\n"
        .into();
    form.table_status =
        "Name\tEngine\tRow_format\tRows\tData_length\tIndex_length\tCreate_options\n\
        big\tInnoDB\tDynamic\t4000000\t939524096\t134217728\t\n"
            .into();
    let (_, notes) = form.question().unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n == "from SHOW VARIABLES: version 8.0.22, profile mysql-8.0.22"),
        "{notes:?}"
    );
    let job = AdviceJob::start(&form).unwrap();
    assert!(job.len() >= 2);
}

#[test]
fn an_unfinished_advice_is_no_ranking() {
    let mut job = AdviceJob::start(&i1_small()).unwrap();
    let p = job.advance(3).unwrap().unwrap();
    assert_eq!((p.playbook, p.seconds, p.name.as_str()), (1, 3, "drop"));
    assert!(job.finish().unwrap_err().contains("0 of 5"));
}

#[test]
fn the_command_line_asks_the_cli_the_same_question() {
    let form = i1_small();
    assert_eq!(
        form.command_line(),
        "ddlscope advise --profile mysql-5.7 --set rpl_semi_sync_master_enabled=ON --pool 4G \
         --instances 4 --ahi on --fs ext4 --table-size 1G --workload oltp_write_only \
         --threads 8 --ddl 'DROP TABLE big' --json"
    );
    let mut odd = AdvisorForm::default();
    odd.set("ddl", "ALTER TABLE t COMMENT 'it''s'");
    assert_eq!(
        odd.command_line(),
        "ddlscope advise --ddl 'ALTER TABLE t COMMENT '\\''it'\\'''\\''s'\\''' --json"
    );
}

/// Each row's link carries its playbook's scenario whole, and the page opened on it
/// is that scenario's server at the link's moment: the same as the engine's own run
/// of the scenario to that tick (the trace hashes agree), its script running.
fn each_link_opens_its_run(advice: &Advice) {
    let view = AdviceView::from(advice);
    for (row, line) in advice.rows.iter().zip(&view.rows) {
        let state = LinkState::decode(&line.link).unwrap();
        assert_eq!(state.scenario, row.scenario.name, "{}", row.name);
        assert_eq!(state.own.as_deref(), Some(&row.scenario), "{}", row.name);
        assert_eq!(state.knobs.script, Some(true));
        let first = row
            .scenario
            .script
            .iter()
            .filter(|s| s.session == 0)
            .map(|s| s.at_s)
            .min()
            .unwrap();
        assert_eq!(
            state.t,
            Tick::from_secs(first - LINK_LEAD_S),
            "{}",
            row.name
        );
    }
    // One of them opened, as a page would (the advice's first, to keep the test short).
    let row = &advice.rows[0];
    let state = LinkState::decode(&view.rows[0].link).unwrap();
    let mut opened = crate::model::replay::open(&state, 1).unwrap();
    opened.settle();
    let mut alone = ddlscope_engine::Sim::new(
        row.scenario.clone(),
        Profile::builtin(&row.scenario.profile).unwrap(),
    )
    .unwrap();
    alone.run_until(state.t);
    assert_eq!(opened.main().sim().now(), state.t);
    assert_eq!(
        opened.main().sim().trace_hash(),
        alone.trace_hash(),
        "{}",
        row.name
    );
    assert_eq!(opened.main().own(), Some(&row.scenario));
}
