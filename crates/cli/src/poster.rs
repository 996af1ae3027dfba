//! `ddlscope poster`: a scenario's buffer-pool map at one moment, as a PNG: the pixels
//! the app's map shows there under its labels (the `ddlscope-map` crate paints both),
//! for the embed player's still frame (`poster=1`). `--all` writes one for every
//! built-in scenario at its own engine and moment, in both themes, with the
//! `index.json` the embed reads (`cargo xtask dist` puts them in `posters/`).
//!
//! ```text
//!   Sim::new(scenario with its script) ──run_until(t)──▶ ddlscope_map::render ──png──▶ file
//! ```

use ddlscope_engine::{Profile, Scenario, Sim, Tick, SCENARIOS};
use ddlscope_map::{lru_scans, render, MapImage, Theme};
use ddlscope_moment::{payload, Moment};
use std::path::Path;

/// The map's width a poster is drawn at, CSS px: the embed player's map at 800 px.
pub const DEFAULT_WIDTH: u32 = 760;
/// How long before a scenario's first timed statement its poster shows it: the pool
/// under load with the table the statement will act on, where a reader who clicks
/// play sees it happen.
const BEFORE_FIRST_STEP: u64 = 2;
/// A scenario with no timed statements shows its steady state at this second.
const STEADY_AT: u64 = 5;

/// The moment a scenario's poster shows, in whole virtual seconds: two seconds
/// before its first timed statement, or its fifth second, within its run.
pub fn default_moment(s: &Scenario) -> u64 {
    let at = s
        .script
        .iter()
        .map(|st| st.at_s.saturating_sub(BEFORE_FIRST_STEP))
        .min()
        .unwrap_or(STEADY_AT);
    at.min(s.seconds)
}

/// The simulation of `scenario` (its own script running, as an embed runs it) on
/// `profile` (default: the scenario's own) at `at`.
pub fn still(scenario: &str, profile: Option<&str>, at: Tick) -> Result<Sim, String> {
    let s = Scenario::builtin(scenario)?;
    let profile = Profile::builtin(profile.unwrap_or(&s.profile))?;
    let mut sim = Sim::new(s, profile)?;
    sim.run_until(at);
    Ok(sim)
}

/// Whether `arg` is a link of a moment (the app's Share link, whole or its
/// `#v1.…` fragment) rather than a scenario's name.
pub fn is_link(arg: &str) -> bool {
    arg.contains('#') || payload::state_item(arg).is_some()
}

/// The server at the moment `link` shares, replayed as the app replays it (the
/// `ddlscope-moment` crate reads the link for both), on `profile`: the link's
/// engine, or its compare engine.
pub fn still_of_link(link: &str, profile: Option<&str>) -> Result<Sim, String> {
    let moment = Moment::from_link(link).map_err(|e| e.to_string())?;
    let engine = match profile {
        None => moment.engine.clone(),
        Some(p) if p == moment.engine || moment.compare.as_deref() == Some(p) => p.to_string(),
        Some(p) => {
            let compare = moment
                .compare
                .as_deref()
                .map_or(String::new(), |c| format!(" and {c}"));
            return Err(format!(
                "--profile {p}: this link's engines are {}{compare}",
                moment.engine
            ));
        }
    };
    moment.replay_on(&engine)
}

/// The map of `sim` now, `width` CSS px wide at `dpr`, in `theme`, with the LRU
/// scans running now.
pub fn picture(sim: &Sim, theme: &Theme, width: u32, dpr: f64) -> MapImage {
    let scans = lru_scans(sim.events());
    render(sim, &scans, theme, width, dpr)
}

/// `img` as a PNG: 8-bit indexed when it has at most 256 colours (a map has a few
/// dozen; a tenth of the RGB file), RGB otherwise.
pub fn encode_png(img: &MapImage) -> Result<Vec<u8>, String> {
    let mut palette: Vec<[u8; 3]> = Vec::new();
    let mut indices: Vec<u8> = Vec::with_capacity(img.rgba.len() / 4);
    for px in img.rgba.chunks_exact(4) {
        let c = [px[0], px[1], px[2]];
        let i = match palette.iter().position(|p| *p == c) {
            Some(i) => i,
            None => {
                palette.push(c);
                palette.len() - 1
            }
        };
        if i > 255 {
            break;
        }
        indices.push(i as u8);
    }
    let indexed = palette.len() <= 256;
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, img.width, img.height);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Best);
        let data: Vec<u8> = if indexed {
            encoder.set_color(png::ColorType::Indexed);
            encoder.set_palette(palette.concat());
            indices
        } else {
            encoder.set_color(png::ColorType::Rgb);
            img.rgba
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect()
        };
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer.write_image_data(&data).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// One poster of the set: what the embed matches a fragment against, and its files.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PosterEntry {
    /// The scenario.
    pub scenario: String,
    /// Its title, for the caption.
    pub title: String,
    /// The engine profile (the scenario's own).
    pub engine: String,
    /// The moment, virtual seconds: the embed's `start=`.
    pub t: u64,
    /// Pixels.
    pub width: u32,
    /// Pixels.
    pub height: u32,
    /// The light theme's file.
    pub light: String,
    /// The dark theme's file.
    pub dark: String,
    /// The tables and their colours in the map, for the legend beside it (the poster
    /// has no text of its own).
    pub tables: Vec<LegendItem>,
}

/// A table in a poster's legend.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LegendItem {
    /// Its name.
    pub name: String,
    /// Its pages' colour, `#rrggbb`.
    pub colour: String,
}

/// The tables of `sim` not dropped, with their colours in the map.
fn legend(sim: &Sim) -> Vec<LegendItem> {
    sim.tables()
        .filter(|t| !t.dropped)
        .map(|t| {
            let c = ddlscope_map::theme::space_colour(t.space);
            LegendItem {
                name: t.name.clone(),
                colour: format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]),
            }
        })
        .collect()
}

/// Writes every built-in scenario's poster, in both themes, and `index.json`, into
/// `dir`, two scenarios at a time; returns the entries. `progress` hears of each
/// scenario as it starts.
pub fn write_all(
    dir: &Path,
    width: u32,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Vec<PosterEntry>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let names: Vec<&str> = SCENARIOS.iter().map(|(n, _)| *n).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || -> Result<Vec<(usize, PosterEntry)>, String> {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(name) = names.get(i) else {
                return Ok(done);
            };
            progress(name);
            done.push((i, write_one(dir, name, width)?));
        }
    };
    let mut entries: Vec<(usize, PosterEntry)> = Vec::new();
    std::thread::scope(|scope| -> Result<(), String> {
        let other = scope.spawn(work);
        entries.extend(work()?);
        entries.extend(
            other
                .join()
                .map_err(|_| "a poster thread panicked".to_string())??,
        );
        Ok(())
    })?;
    entries.sort_by_key(|(i, _)| *i);
    let entries: Vec<PosterEntry> = entries.into_iter().map(|(_, e)| e).collect();
    let index = serde_json::json!({ "posters": entries });
    let path = dir.join("index.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&index).map_err(|e| e.to_string())? + "\n",
    )
    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(entries)
}

/// Scenario `name`'s posters at its own engine and moment, light and dark, in `dir`.
fn write_one(dir: &Path, name: &str, width: u32) -> Result<PosterEntry, String> {
    let s = Scenario::builtin(name)?;
    let t = default_moment(&s);
    let sim = still(name, None, Tick::from_secs(t))?;
    let mut files = Vec::new();
    let mut size = (0, 0);
    for (label, theme) in [("light", Theme::LIGHT), ("dark", Theme::DARK)] {
        let img = picture(&sim, &theme, width, 1.0);
        size = (img.width, img.height);
        let file = format!("{name}.{label}.png");
        let path = dir.join(&file);
        std::fs::write(&path, encode_png(&img)?)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        files.push(file);
    }
    Ok(PosterEntry {
        scenario: name.to_string(),
        title: s.title.clone(),
        engine: s.profile.clone(),
        t,
        width: size.0,
        height: size.1,
        light: files[0].clone(),
        dark: files[1].clone(),
        tables: legend(&sim),
    })
}
