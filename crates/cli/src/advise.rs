//! `ddlscope advise`: every playbook that applies to a DDL, run on the question's
//! server, table and workload, each on its own engine in its own thread, then ranked.
//! Each playbook's scenario is written to a file `ddlscope run` replays.

use ddlscope_engine::advisor::{self, AdviceInput, Figures, InputBuilder, PlannedPlaybook};
use ddlscope_engine::Profile;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One playbook's line of the advice.
#[derive(Clone, Debug, Serialize)]
pub struct Ranked {
    /// The playbook.
    pub name: String,
    /// 1 = try it first.
    pub rank: usize,
    /// What it does.
    pub summary: String,
    /// Its figures, flattened into the line.
    #[serde(flatten)]
    pub figures: Figures,
    /// The scenario file that replays its run.
    pub scenario: String,
}

/// The whole advice.
#[derive(Clone, Debug, Serialize)]
pub struct Advice {
    /// Best first.
    pub playbooks: Vec<Ranked>,
    /// What was taken from pasted output and what was assumed.
    pub assumptions: Vec<String>,
}

/// The question from `fields` (name, value) in order, then pasted SHOW output for
/// what they leave out.
pub fn question(
    fields: &[(&str, String)],
    show_variables: Option<&str>,
    table_status: Option<&str>,
) -> Result<(AdviceInput, Vec<String>), String> {
    let mut b = InputBuilder::new();
    for (field, value) in fields {
        b.set(field, value)?;
    }
    if let Some(text) = show_variables {
        advisor::read_show_variables(&mut b, text)?;
    }
    if let Some(text) = table_status {
        let ddl = fields
            .iter()
            .find(|(f, _)| *f == "ddl")
            .ok_or("--ddl: missing (e.g. \"DROP TABLE big\")")?;
        let table = advisor::Ddl::parse(&ddl.1)?.table;
        advisor::read_table_status(&mut b, text, &table)?;
    }
    b.finish()
}

/// Runs every playbook on up to `jobs` threads; `progress` hears each as it ends.
fn run_all(
    planned: &[PlannedPlaybook],
    jobs: usize,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Vec<(ddlscope_engine::Scenario, Figures)>, String> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<_, String>>>> = Mutex::new(vec![None; planned.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, planned.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(p) = planned.get(i) else { break };
                let r = Profile::builtin(&p.scenario.profile).and_then(|profile| {
                    advisor::run_to_end(
                        p.scenario.clone(),
                        profile,
                        advisor::MAX_RUN_S,
                        &mut |_| {},
                    )
                });
                progress(&p.playbook.name);
                results.lock().expect("no thread panicked holding it")[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .expect("no thread panicked holding it")
        .into_iter()
        .map(|r| r.expect("every playbook ran"))
        .collect()
}

/// Writes `scenario` as TOML to `dir/NAME.toml` and checks it reads back the same.
fn write_scenario(
    dir: &Path,
    name: &str,
    scenario: &ddlscope_engine::Scenario,
) -> Result<PathBuf, String> {
    let text = toml::to_string(scenario).map_err(|e| format!("{name}: {e}"))?;
    let back = ddlscope_engine::Scenario::from_toml(&text).map_err(|e| format!("{name}: {e}"))?;
    if &back != scenario {
        return Err(format!(
            "{name}: the scenario does not read back as written"
        ));
    }
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// The advice: plan, run, rank, write the scenarios under `dir`.
pub fn advise(
    input: &AdviceInput,
    mut assumptions: Vec<String>,
    dir: &Path,
    jobs: usize,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Advice, String> {
    let (planned, notes) = advisor::plan(input)?;
    assumptions.extend(notes);
    let results = run_all(&planned, jobs, progress)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let figures: Vec<Figures> = results.iter().map(|(_, f)| f.clone()).collect();
    let mut playbooks = Vec::new();
    for (rank, i) in advisor::rank(&figures).into_iter().enumerate() {
        let p = &planned[i].playbook;
        let path = write_scenario(dir, &format!("advise-{}", p.name), &results[i].0)?;
        playbooks.push(Ranked {
            name: p.name.clone(),
            rank: rank + 1,
            summary: p.summary.clone(),
            figures: figures[i].clone(),
            scenario: path.display().to_string(),
        });
    }
    Ok(Advice {
        playbooks,
        assumptions,
    })
}
