//! The embed player's options and its postMessage API, as plain data: the fragment's
//! `controls=`, `panels=`, `start=`, `end=`, `loop=`, `autoplay=`, `theme=` and
//! `origins=` read with clear errors (`poster=` is embed.html's, read before the
//! module loads), the commands a parent page may
//! send (`play`, `pause`, `seek`, `speed`, `run`) read from their JSON, and the
//! origin check. The browser glue is `ui::embed`.

use super::link::{parse_flag, LinkError};
use ddlscope_engine::Tick;
use serde::Deserialize;

/// The panels an embed can show, in the order it shows them.
pub const PANELS: [&str; 8] = [
    "map",
    "latches",
    "mdl",
    "processlist",
    "chart-tps",
    "chart-bp",
    "chart-waits",
    "console",
];
/// What an embed shows when `panels=` is not given.
const DEFAULT_PANELS: [&str; 2] = ["map", "latches"];

/// How much of the toolbar an embed shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ControlSet {
    /// Play/pause, the scrubber and the clock.
    #[default]
    Minimal,
    /// Also step, back and the speed.
    Full,
}

/// A colour scheme forced by the host page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl Theme {
    /// The `data-theme` value.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// The embed player's options.
#[derive(Clone, Debug, PartialEq)]
pub struct EmbedOptions {
    /// `controls=minimal|full`.
    pub controls: ControlSet,
    /// `panels=map,latches,...`, in [`PANELS`] order.
    pub panels: Vec<&'static str>,
    /// `start=T`: where the player opens (virtual seconds).
    pub start: Option<Tick>,
    /// `end=T`: where it stops (or loops back to `start`).
    pub end: Option<Tick>,
    /// `loop=1`.
    pub looped: bool,
    /// `autoplay=1`: the clock runs at once.
    pub autoplay: bool,
    /// `theme=light|dark`.
    pub theme: Option<Theme>,
    /// `origins=https://a.example,https://b.example`: the pages allowed to drive the
    /// player and to hear from it, besides its own origin.
    pub origins: Vec<String>,
}

impl Default for EmbedOptions {
    fn default() -> EmbedOptions {
        EmbedOptions {
            controls: ControlSet::Minimal,
            panels: DEFAULT_PANELS.to_vec(),
            start: None,
            end: None,
            looped: false,
            autoplay: false,
            theme: None,
            origins: Vec::new(),
        }
    }
}

impl EmbedOptions {
    /// Reads the fragment's parameters; unknown keys are other readers' (lessons).
    pub fn from_params(params: &[(String, String)]) -> Result<EmbedOptions, LinkError> {
        let mut o = EmbedOptions::default();
        let bad = |k: &str, v: &str, what: &str| LinkError::Invalid(format!("{k}={v} ({what})"));
        for (k, v) in params {
            match k.as_str() {
                "controls" => {
                    o.controls = match v.as_str() {
                        "minimal" => ControlSet::Minimal,
                        "full" => ControlSet::Full,
                        _ => return Err(bad(k, v, "use minimal or full")),
                    }
                }
                "panels" => o.panels = parse_panels(v)?,
                "start" => o.start = Some(parse_secs(k, v)?),
                "end" => o.end = Some(parse_secs(k, v)?),
                "loop" => o.looped = parse_flag(k, v)?,
                "autoplay" => o.autoplay = parse_flag(k, v)?,
                // Read by embed.html before the module loads (the still frame or an
                // image, and the load button): by now the reader has clicked.
                "poster" => {}
                "theme" => {
                    o.theme = Some(match v.as_str() {
                        "light" => Theme::Light,
                        "dark" => Theme::Dark,
                        _ => return Err(bad(k, v, "use light or dark")),
                    })
                }
                "origins" => o.origins = parse_origins(v)?,
                _ => {}
            }
        }
        if let (Some(s), Some(e)) = (o.start, o.end) {
            if e <= s {
                return Err(LinkError::Invalid(format!(
                    "end={} is not after start={}",
                    e.as_secs_f64(),
                    s.as_secs_f64()
                )));
            }
        }
        Ok(o)
    }

    /// Whether `panel` is shown.
    pub fn shows(&self, panel: &str) -> bool {
        self.panels.contains(&panel)
    }

    /// Whether a message from `origin` may drive the player (and hear from it): its
    /// own origin, or one the fragment allows.
    pub fn allows(&self, origin: &str, own: &str) -> bool {
        origin == own || self.origins.iter().any(|o| o == origin)
    }
}

fn parse_panels(v: &str) -> Result<Vec<&'static str>, LinkError> {
    let asked: Vec<&str> = v.split(',').filter(|p| !p.is_empty()).collect();
    if let Some(unknown) = asked.iter().find(|p| !PANELS.contains(p)) {
        return Err(LinkError::Invalid(format!(
            "panels: no panel '{unknown}' (the panels are {})",
            PANELS.join(", ")
        )));
    }
    if asked.is_empty() {
        return Err(LinkError::Invalid("panels= names no panel".into()));
    }
    Ok(PANELS.into_iter().filter(|p| asked.contains(p)).collect())
}

/// Virtual seconds, `8` or `12.5`, as a tick.
fn parse_secs(k: &str, v: &str) -> Result<Tick, LinkError> {
    let secs: f64 = v
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s >= 0.0 && *s <= 3600.0)
        .ok_or_else(|| LinkError::Invalid(format!("{k}={v} (virtual seconds, 0 to 3600)")))?;
    Ok(Tick((secs * 1e9).round() as u64))
}

fn parse_origins(v: &str) -> Result<Vec<String>, LinkError> {
    v.split(',')
        .filter(|o| !o.is_empty())
        .map(|o| {
            let scheme_ok = o.starts_with("https://") || o.starts_with("http://");
            let host = o.split_once("://").map_or("", |(_, h)| h);
            if scheme_ok && !host.is_empty() && !host.contains('/') {
                Ok(o.to_string())
            } else {
                Err(LinkError::Invalid(format!(
                    "origins: '{o}' is not an origin (scheme://host[:port], no path)"
                )))
            }
        })
        .collect()
}

/// What a parent page may ask of the player.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Run the clock.
    Play,
    /// Stop the clock.
    Pause,
    /// Go to virtual time `t` (seconds).
    Seek(Tick),
    /// Virtual seconds per wall second.
    Speed(f64),
    /// Type `sql` into console session `session` (the first one when absent).
    Run {
        /// Processlist id of a console session.
        session: Option<u32>,
        /// The statement(s).
        sql: String,
    },
}

/// A message as JSON, before it is checked.
#[derive(Deserialize)]
#[serde(
    tag = "type",
    rename_all = "lowercase",
    expecting = "an object whose \"type\" is play, pause, seek, speed or run"
)]
enum Wire {
    Play,
    Pause,
    Seek { t: f64 },
    Speed { x: f64 },
    Run { session: Option<u32>, sql: String },
}

/// Reads a message's JSON (`{"type": "seek", "t": 8}`); anything else is an error
/// whose text the player logs once.
pub fn parse_command(json: &str) -> Result<Command, String> {
    let wire: Wire =
        serde_json::from_str(json).map_err(|e| format!("not a ddlscope command: {e}"))?;
    Ok(match wire {
        Wire::Play => Command::Play,
        Wire::Pause => Command::Pause,
        Wire::Seek { t } if t.is_finite() && (0.0..=3600.0).contains(&t) => {
            Command::Seek(Tick((t * 1e9).round() as u64))
        }
        Wire::Seek { t } => return Err(format!("seek: t = {t} is not 0 to 3600 virtual seconds")),
        Wire::Speed { x } if x.is_finite() && (0.01..=1000.0).contains(&x) => Command::Speed(x),
        Wire::Speed { x } => return Err(format!("speed: x = {x} is not 0.01 to 1000")),
        Wire::Run { sql, .. } if sql.trim().is_empty() => return Err("run: no sql".into()),
        Wire::Run { session, sql } => Command::Run { session, sql },
    })
}

/// The scales a host may say it shows the player at (`ddlscope:scale`).
pub const HOST_SCALES: std::ops::RangeInclusive<f64> = 0.25..=4.0;

/// A host's `{"type": "ddlscope:scale", "scale": s}`: how much the page that hosts
/// the player scales it on screen (a reveal.js slide's transform, which the player
/// cannot see from inside its iframe). `None` when `json` is another message; an
/// error naming the field for a scale outside [`HOST_SCALES`]. Not a command: it
/// changes nothing but how many device pixels the canvases are drawn with, so any
/// parent may send it, as reveal.js's `slide:*` messages.
pub fn parse_host_scale(json: &str) -> Option<Result<f64, String>> {
    let value: serde_json::Value = serde_json::from_str(json).ok()?;
    if value.get("type")?.as_str()? != "ddlscope:scale" {
        return None;
    }
    Some(
        match value.get("scale").and_then(serde_json::Value::as_f64) {
            Some(s) if HOST_SCALES.contains(&s) => Ok(s),
            Some(s) => Err(format!("ddlscope:scale: scale = {s} is not 0.25 to 4")),
            None => Err("ddlscope:scale: no numeric scale".into()),
        },
    )
}

/// The player's console warning for a message it does not obey (once: later ones
/// are ignored silently).
pub fn ignored(why: &str) -> String {
    format!("ddlscope player: message ignored ({why}); later ones are ignored silently")
}

/// The player's console warning for a `run` whose SQL the engine refused.
pub fn run_refused(err: &str) -> String {
    format!("ddlscope player: run refused: {err}")
}

/// Why a message from `origin` is not obeyed, or `None` when it may drive the player.
pub fn foreign(options: &EmbedOptions, origin: &str, own: &str) -> Option<String> {
    (!options.allows(origin, own)).then(|| format!("origin {origin} is not in origins="))
}

/// The MySQL error code at the start of a client's error line (`ERROR 1205 (HY000): …`).
pub fn error_code(result: &str) -> Option<u32> {
    result
        .strip_prefix("ERROR ")?
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests;
