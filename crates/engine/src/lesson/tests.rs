use super::*;
use crate::time::Tick;

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

fn err(extra: &str) -> String {
    parse("x.toml", &format!("{MINIMAL}{extra}")).unwrap_err()
}

#[test]
fn every_built_in_lesson_reads_and_has_five_to_twelve_steps() {
    let lessons = builtin();
    assert!(lessons.len() >= 7);
    for l in lessons {
        let l = l.unwrap();
        assert!(
            (5..=12).contains(&l.steps.len()),
            "{}: {} steps",
            l.id,
            l.steps.len()
        );
        assert!(
            l.steps.iter().any(|s| s.question.is_some()),
            "{} asks nothing",
            l.id
        );
    }
}

#[test]
fn a_minimal_lesson_reads_and_plans() {
    let l = parse("x.toml", MINIMAL).unwrap();
    let plan = l.plan(0, 0, 0).unwrap();
    assert_eq!(plan.sessions, ["s1", "s2"]);
    assert_eq!(plan.open_at, Tick::ZERO);
    assert_eq!(plan.pause_at, Some(Tick::from_secs(3)));
}

#[test]
fn a_continued_step_opens_where_the_one_before_paused_and_replays_its_statements() {
    let l = parse(
        "x.toml",
        &format!(
            "{MINIMAL}\n[[steps]]\ntitle = \"two\"\nnarration = \"n\"\ncontinue = true\nactions = [{{ at = \"5s\", session = \"s3\", sql = \"SELECT 1\" }}]\n"
        ),
    )
    .unwrap();
    let plan = l.plan(1, 0, 0).unwrap();
    assert_eq!(plan.open_at, Tick::from_secs(3));
    assert_eq!(plan.actions.len(), 2);
    assert_eq!(plan.sessions, ["s1", "s2", "s3"]);
    // The first step connects s3 too, so both replays have the same sessions.
    assert_eq!(l.plan(0, 0, 0).unwrap().sessions, ["s1", "s2", "s3"]);
}

#[test]
fn bad_lessons_name_the_file_the_line_and_the_step() {
    let step = "\n[[steps]]\ntitle = \"two\"\nnarration = \"n\"\n";
    for (extra, want) in [
        (
            format!("{step}setup = {{ scenario = \"nope\" }}\n"),
            "x.toml:14: step 2 'two': unknown scenario 'nope'",
        ),
        (
            format!("{step}continue = true\nactions = [{{ at = \"2s\", session = \"s2\", sql = \"SELEC 1\" }}]\n"),
            "x.toml:18: step 2 'two': ERROR 1064 (42000)",
        ),
        (
            format!("{step}continue = true\nactions = [{{ at = \"500ms\", session = \"s2\", sql = \"SELECT 1\" }}]\n"),
            "x.toml:18: step 2 'two': statement at 500.000 ms comes before one at 1.000 s",
        ),
        (
            format!("{step}continue = true\nsetup = {{ scenario = \"drop-table-demo\" }}\n"),
            "x.toml:14: step 2 'two': give exactly one of",
        ),
        (
            format!("{step}continue = true\nhighlight = [{{ panel = \"nowhere\" }}]\n"),
            "x.toml:18: step 2 'two': panel 'nowhere': one of pool-map",
        ),
        (
            format!("{step}continue = true\nhighlight = [{{ chart = \"tps\" }}]\n"),
            "x.toml:18: step 2 'two': chart 'tps': one of throughput, buffer-pool, waits",
        ),
        (
            format!("{step}continue = true\n[steps.question]\nprompt = \"?\"\nchoices = [\"a\", \"b\"]\nanswer = \"c\"\nobserve = {{ kind = \"failed_over\" }}\nat = \"4s\"\n"),
            "x.toml:18: step 2 'two': answer 'c' is not one of the choices",
        ),
        (
            format!("{step}continue = true\n[steps.question]\nprompt = \"?\"\nanswer = 3\nobserve = {{ kind = \"tps_mean\", from = \"1s\", to = \"2s\" }}\nat = \"4s\"\n"),
            "x.toml:18: step 2 'two': a number question needs tolerance",
        ),
        (
            format!("{step}continue = true\n[steps.question]\nprompt = \"?\"\nanswer = 3\ntolerance = 1\nobserve = {{ kind = \"tps_drop_pct\", from = \"1s\", to = \"2s\" }}\nat = \"4s\"\n"),
            "x.toml:18: step 2 'two': observe: this needs a compare engine",
        ),
    ] {
        let e = err(&extra);
        assert!(e.starts_with(want), "{e}\nwanted: {want}");
    }
    let toml = parse("x.toml", "id = \"t\"\ntitle = 3\n").unwrap_err();
    assert!(toml.starts_with("x.toml:2: "), "{toml}");
}

#[test]
fn a_number_answer_accepts_guesses_within_its_tolerance() {
    let k = QuestionKind::Number {
        answer: 150.0,
        tolerance: 37.5,
        unit: "s".into(),
    };
    assert!(k.accepts("120", None));
    assert!(!k.accepts("100", None));
    assert!(!k.accepts("soon", None));
}

/// Every built-in lesson as its file reads today.
fn from_files() -> Vec<(String, Lesson)> {
    crate::builtin::LESSONS
        .iter()
        .map(|(n, a)| {
            let l = parse(&format!("assets/lessons/{n}.toml"), a.text())
                .unwrap_or_else(|e| panic!("{e}"));
            (n.to_string(), l)
        })
        .collect()
}

#[test]
fn builtin_bin_lessons_is_current() {
    crate::builtin::check_compiled(
        "lessons.bin",
        crate::builtin::COMPILED_LESSONS,
        &from_files(),
    );
}

#[test]
fn every_builtin_lesson_reads_as_its_file() {
    let compiled: Vec<Lesson> = builtin().into_iter().map(|l| l.unwrap()).collect();
    let files: Vec<Lesson> = from_files().into_iter().map(|(_, l)| l).collect();
    assert_eq!(compiled, files);
}

#[test]
fn every_builtin_step_has_speaker_notes_that_state_its_answer() {
    // The notes window is the presenter's: every step says what to say and what to
    // point at, and a step with a question gives its answer there, before the reveal.
    for (file, lesson) in from_files() {
        for (i, step) in lesson.steps.iter().enumerate() {
            let at = format!("{file} step {}", i + 1);
            assert!(
                step.notes.split_whitespace().count() >= 12,
                "{at}: speaker notes of a sentence or more, not {:?}",
                step.notes
            );
            if step.question.is_some() {
                assert!(
                    step.notes.contains("**Answer") || step.notes.contains("stated answer"),
                    "{at}: the notes give the answer before the reveal: {:?}",
                    step.notes
                );
            }
        }
    }
}
