//! `ddlscope lesson check`: every shipped lesson's answers hold on the engine, and a
//! lesson whose answers do not is refused.

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

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_shipped_lesson_says_what_the_simulation_shows() {
    let (code, out, err) = ddlscope(&["lesson", "check"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let lessons = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/lessons"))
        .unwrap()
        .count();
    let checked: Vec<&str> = out.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(checked.len(), lessons, "one report per lesson file: {out}");
    assert!(lessons >= 7, "six incident lessons and the quiz");
    for line in &checked {
        assert!(line.ends_with(": ok"), "{line}");
        // Each lesson has 5 to 12 steps and asks at least one question.
        let steps: usize = line
            .split(": ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!((5..=12).contains(&steps), "{line}");
        assert!(!line.contains(" 0 questions"), "{line}");
    }
    assert!(!out.contains("FAIL"), "{out}");
}

#[test]
fn a_lesson_whose_answers_are_wrong_fails_the_check() {
    let (code, out, err) = ddlscope(&["lesson", "check", &fixture("wrong-answer.toml")]);
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(
        out.contains("wrong-answer: 2 steps, 2 questions checked: FAILED"),
        "{out}"
    );
    assert!(
        out.contains("FAIL step 1 (line 14): stated 10 ± 1 s, simulated 0."),
        "{out}"
    );
    assert!(
        out.contains(
            "FAIL step 2 (line 28): stated s2, simulated nothing (no statement got error 1205)"
        ),
        "{out}"
    );
    assert!(
        err.contains("a lesson's stated answer is not what the simulation shows"),
        "{err}"
    );
}

#[test]
fn a_malformed_lesson_names_its_file_and_line() {
    let path = fixture("bad-line.toml");
    let (code, _, err) = ddlscope(&["lesson", "check", &path]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "{path}:12: step 1 'one': at '2x': use 250ms, 2s or 1.5s"
        )),
        "{err}"
    );
}
