use super::*;

const MINIMAL: &str = r#"
id = "t"
title = "T"
audience = "a"
duration = "5 min"

[[steps]]
title = "one"
narration = "n"
setup = { scenario = "drop-table-demo", engine = "mysql-8.0.23" }
actions = [{ at = "1s", session = "s2", sql = "DROP TABLE t1" }]
pause_at = "3s"
"#;

fn err(text: &str) -> String {
    parse("x.toml", text).unwrap_err()
}

#[test]
fn debug_queue() {
    let l = super::builtin().remove(0).unwrap();
    let plan = l.plan(3, 0, 0).unwrap();
    let mut run = LessonRun::start(&plan).unwrap();
    run.run_until(Tick::from_secs(30)).unwrap();
    for q in run.main.mdl_queues() {
        eprintln!(
            "{:?} granted {} waiting {}",
            q.key,
            q.granted.len(),
            q.waiting.len()
        );
    }
    eprintln!("{:?}", run.main.samples().last());
    panic!();
}

#[test]
fn a_minimal_lesson_reads() {
    let l = parse("x.toml", MINIMAL).unwrap();
    assert_eq!(l.steps.len(), 1);
    let plan = l.plan(0, 0, 0).unwrap();
    assert_eq!(plan.sessions, ["s1", "s2"]);
    assert_eq!(plan.pause_at, Some(Tick::from_secs(3)));
}

use crate::time::Tick;
