//! The names a presenter gives console sessions (`alice`, `s1`), as session scripts
//! name theirs: a tab reads `alice · 17`, the processlist id kept beside the name.
//! The rule is the scripts' (`docs/session-scripts.md`): letters, digits and `_`.

use std::collections::BTreeMap;

/// The longest name a tab shows whole.
pub const MAX_NAME_CHARS: usize = 16;

/// Console session names by processlist id.
pub type SessionNames = BTreeMap<u32, String>;

/// The name `text` gives session `id` among `names`: `Ok(None)` clears it (empty
/// text), an error says what is wrong with it.
pub fn check_name(names: &SessionNames, id: u32, text: &str) -> Result<Option<String>, String> {
    let name = text.trim();
    if name.is_empty() {
        return Ok(None);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "session name '{name}' is longer than {MAX_NAME_CHARS} characters"
        ));
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!(
            "session name '{name}': use letters, digits and _ (as in session scripts: s1, alice)"
        ));
    }
    if let Some((other, _)) = names.iter().find(|(i, n)| **i != id && n.as_str() == name) {
        return Err(format!("session {other} is already called '{name}'"));
    }
    Ok(Some(name.to_string()))
}

/// What a tab says: `alice · 17`, or `Session 17` for an unnamed one.
pub fn tab_label(names: &SessionNames, id: u32) -> String {
    match names.get(&id) {
        Some(name) => format!("{name} · {id}"),
        None => format!("Session {id}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_scripts_rule_and_stay_unique() {
        let mut names = SessionNames::new();
        assert_eq!(check_name(&names, 17, " alice "), Ok(Some("alice".into())));
        names.insert(17, "alice".into());
        assert_eq!(tab_label(&names, 17), "alice · 17");
        assert_eq!(tab_label(&names, 18), "Session 18");
        assert_eq!(
            check_name(&names, 17, "alice"),
            Ok(Some("alice".into())),
            "its own"
        );
        assert_eq!(
            check_name(&names, 18, "alice"),
            Err("session 17 is already called 'alice'".into())
        );
        assert!(check_name(&names, 18, "bob smith")
            .unwrap_err()
            .contains("letters, digits and _"));
        assert!(check_name(&names, 18, &"x".repeat(17))
            .unwrap_err()
            .contains("longer than 16"));
        assert_eq!(check_name(&names, 17, ""), Ok(None), "empty clears");
    }
}
