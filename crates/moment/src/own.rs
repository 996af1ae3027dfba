//! A scenario a link carries whole: a run that is not built in, such as one of the
//! Advisor's playbooks (`ddlscope_engine::advisor`; the scenario `ddlscope advise`
//! writes to a file for `ddlscope run`), opens from its link on any page without the
//! page knowing it beforehand. Built-in scenarios travel by name only. It travels in
//! the link's JSON as the scenario's own fields (TOML text instead made the shipped
//! module 65 KiB larger again: its writer is not otherwise in it).

use ddlscope_engine::Scenario;

/// The scenario `name` names: `own` when the link carries one (see [`check_own`]),
/// else the built-in.
pub fn scenario_of(name: &str, own: Option<&Scenario>) -> Result<Scenario, String> {
    match own {
        None => Scenario::builtin(name),
        Some(s) => {
            check_own(name, s)?;
            Ok(s.clone())
        }
    }
}

/// Checks a scenario a link carries: it must pass the checks a scenario file does,
/// be called `name`, and not take a built-in's name (a link could otherwise pass
/// off another run as the built-in one).
pub fn check_own(name: &str, own: &Scenario) -> Result<(), String> {
    if own.name != name {
        return Err(format!(
            "the link's own scenario is called '{}', not '{name}'",
            own.name
        ));
    }
    if Scenario::builtin(name).is_ok() {
        return Err(format!(
            "the link's own scenario takes the name of the built-in '{name}'"
        ));
    }
    own.validate()
        .map_err(|e| format!("the link's own scenario '{name}': {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(name: &str) -> Scenario {
        let mut s = Scenario::builtin("drop-table-demo").expect("built in");
        s.name = name.to_string();
        s
    }

    #[test]
    fn a_built_in_travels_by_name() {
        assert_eq!(
            scenario_of("drop-table-demo", None),
            Scenario::builtin("drop-table-demo")
        );
        assert!(scenario_of("no-such", None)
            .unwrap_err()
            .contains("unknown scenario 'no-such'"));
    }

    #[test]
    fn an_own_scenario_is_checked() {
        let s = own("advise-pt-osc");
        assert_eq!(scenario_of("advise-pt-osc", Some(&s)), Ok(s.clone()));
        assert!(scenario_of("other", Some(&s))
            .unwrap_err()
            .contains("is called 'advise-pt-osc'"));
        let posing = own("drop-table-demo");
        assert!(scenario_of("drop-table-demo", Some(&posing))
            .unwrap_err()
            .contains("name of the built-in"));
        let mut bad = own("advise-bad");
        bad.buffer_pool.instances = 0;
        let e = scenario_of("advise-bad", Some(&bad)).unwrap_err();
        assert!(
            e.starts_with("the link's own scenario 'advise-bad': "),
            "{e}"
        );
    }
}
