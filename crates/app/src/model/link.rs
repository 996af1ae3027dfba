//! The page's state as a link: what the model needs to rebuild a moment of a run
//! (its inputs, not its outputs), and the versioned fragment that carries it
//! (`#v1.<payload>&key=value...`; docs/embedding.md has the whole scheme).
//!
//! ```text
//!   LinkState ──serde_json──▶ JSON ──ddlscope_moment::payload (deflate, base64url)──▶ "v1.<payload>"
//!   "#v1.<payload>&controls=minimal&start=8" ──parse_fragment──▶ Fragment { state, params }
//! ```
//!
//! A run is a pure function of scenario + profile + settings (seed included) + the
//! timed journal of what the user did, so a link holds exactly those, plus where the
//! viewer was (virtual time, speed, paused, the panels open). Opening it replays the
//! journal to that tick (`model::replay`). Decoding never panics: every malformed,
//! truncated, oversized or unknown-version fragment is a [`LinkError`] whose text the
//! page shows before it opens the default scenario.

use super::knobs::Knobs;
use super::panel_layout::{PanelId, PanelLayout};
use super::runner::{Input, InputKind, DEFAULT_PROFILE, DEFAULT_SCENARIO};
use ddlscope_engine::{Scenario, Tick};
use ddlscope_moment::moment::check_times;
pub use ddlscope_moment::moment::{MAX_JOURNAL, MAX_LINK_TIME};
use ddlscope_moment::payload::{self, is_state_item};
pub use ddlscope_moment::payload::{LinkError, LINK_VERSION, MAX_FRAGMENT};
pub use ddlscope_moment::JournalEntry;
use serde::{Deserialize, Serialize};

/// The slowest and fastest speeds the controls offer.
const SPEEDS: (f64, f64) = (0.01, 1000.0);

/// The runner's input of a journal entry (`ddlscope_moment::JournalEntry`, the
/// format shared with the CLI).
pub fn input_of(entry: &JournalEntry) -> Input {
    match entry {
        JournalEntry::Connect { at } => Input {
            at: *at,
            kind: InputKind::Connect,
        },
        JournalEntry::Submit { at, session, sql } => Input {
            at: *at,
            kind: InputKind::Submit {
                session: *session,
                sql: sql.clone(),
            },
        },
    }
}

/// The link's form of a runner input, at the tick the engine applied it.
pub fn entry_of(input: &Input) -> JournalEntry {
    match &input.kind {
        InputKind::Connect => JournalEntry::Connect { at: input.at },
        InputKind::Submit { session, sql } => JournalEntry::Submit {
            at: input.at,
            session: *session,
            sql: sql.clone(),
        },
    }
}

/// Everything a link carries: the model's inputs and where the viewer was.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinkState {
    /// The scenario's name: a built-in one's, or [`LinkState::own`]'s.
    pub scenario: String,
    /// The scenario itself, when it is not built in (an Advisor playbook's run:
    /// `ddlscope_moment::own`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own: Option<Box<Scenario>>,
    /// The engine profile.
    pub engine: String,
    /// The profile compared side by side, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<String>,
    /// Server settings, seed and whether the scenario's script runs.
    #[serde(default, skip_serializing_if = "Knobs::is_default")]
    pub knobs: Knobs,
    /// What the user did, in time order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub journal: Vec<JournalEntry>,
    /// The virtual times where typing in the past dropped a recorded future.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<Tick>,
    /// The current virtual time.
    #[serde(default)]
    pub t: Tick,
    /// Virtual seconds per wall second.
    #[serde(default = "one")]
    pub speed: f64,
    /// Whether the clock is stopped.
    #[serde(default)]
    pub paused: bool,
    /// The first form of the panels open: their names, in order (the others closed).
    /// Read from old links; this page writes `layout` instead.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub panels: Vec<String>,
    /// The main page's panels: which show, in which order and column, and whether the
    /// scenario card is open, in [`PanelLayout::to_param`]'s form. Absent: the
    /// default layout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<String>,
}

fn one() -> f64 {
    1.0
}

impl Default for LinkState {
    fn default() -> LinkState {
        LinkState {
            scenario: DEFAULT_SCENARIO.to_string(),
            own: None,
            engine: DEFAULT_PROFILE.to_string(),
            compare: None,
            knobs: Knobs::default(),
            journal: Vec::new(),
            branches: Vec::new(),
            t: Tick::ZERO,
            speed: 1.0,
            paused: false,
            panels: Vec::new(),
            layout: None,
        }
    }
}

impl LinkState {
    /// The state from the runner's inputs and the viewer's position.
    pub fn journal_of(inputs: &[Input]) -> Vec<JournalEntry> {
        inputs.iter().map(entry_of).collect()
    }

    /// The runner's inputs.
    pub fn inputs(&self) -> Vec<Input> {
        self.journal.iter().map(input_of).collect()
    }

    /// The panels the link opens: its `layout`, or an old link's `panels` (those
    /// shown, in that order, the rest closed), or the default layout.
    pub fn panel_layout(&self) -> PanelLayout {
        if let Some(layout) = self
            .layout
            .as_deref()
            .and_then(|l| PanelLayout::parse(l).ok())
        {
            return layout;
        }
        let named: Vec<PanelId> = self
            .panels
            .iter()
            .filter_map(|n| PanelId::from_name(n.strip_prefix("chart-").unwrap_or(n)))
            .collect();
        if named.is_empty() {
            return PanelLayout::default();
        }
        let mut layout = PanelLayout::default();
        layout.order.retain(|p| !named.contains(p));
        layout.hidden = layout.order.clone();
        layout.hidden.sort();
        layout.split = named.len().min(PanelLayout::default().split);
        layout.order.splice(0..0, named.iter().copied());
        layout
    }

    /// The state's `layout` for `layout`: none for the default one (shorter links).
    pub fn layout_param(layout: &PanelLayout) -> Option<String> {
        (*layout != PanelLayout::default()).then(|| layout.to_param())
    }

    /// The payload: `v1.` and the deflated JSON in base64url.
    pub fn encode(&self) -> String {
        let json = serde_json::to_vec(self).expect("a link state always serializes");
        payload::encode(&json)
    }

    /// What identifies the run this state records apart from its moment (a hash of
    /// the state with its clock at zero), so that the page can tell a moment that
    /// only moved from a new input without reading the fragments; `None` when
    /// paused (a paused state's moment was chosen: a step, a seek).
    pub fn run_key(&self) -> Option<u64> {
        use std::hash::{Hash, Hasher};
        if self.paused {
            return None;
        }
        let timeless = LinkState {
            t: Tick::ZERO,
            ..self.clone()
        };
        let json = serde_json::to_vec(&timeless).expect("a link state always serializes");
        let mut h = std::collections::hash_map::DefaultHasher::new();
        json.hash(&mut h);
        Some(h.finish())
    }

    /// Reads a payload (`v1.…`).
    pub fn decode(item: &str) -> Result<LinkState, LinkError> {
        let json = payload::decode(item)?;
        let state: LinkState =
            serde_json::from_slice(&json).map_err(|e| LinkError::Malformed(e.to_string()))?;
        state.validate()?;
        Ok(state)
    }

    /// Checks what a hand-edited or hostile link could get wrong: times in order and
    /// within [`MAX_LINK_TIME`], a speed the controls offer, a bounded journal.
    pub fn validate(&self) -> Result<(), LinkError> {
        check_times(self.t, &self.journal)?;
        if !(SPEEDS.0..=SPEEDS.1).contains(&self.speed) {
            return Err(LinkError::Invalid(format!(
                "speed {} (from {} to {})",
                self.speed, SPEEDS.0, SPEEDS.1
            )));
        }
        if let Some(layout) = &self.layout {
            PanelLayout::parse(layout).map_err(|e| LinkError::Invalid(format!("layout: {e}")))?;
        }
        if let Some(own) = &self.own {
            ddlscope_moment::own::check_own(&self.scenario, own).map_err(LinkError::Invalid)?;
        }
        Ok(())
    }
}

/// A fragment, read: the state if it carries one, and its `key=value` parameters in
/// order (embed options, lessons' `lesson=` and `step=`, anything later versions add).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fragment {
    /// The `v1.…` item, decoded, with the plain state parameters applied.
    pub state: Option<LinkState>,
    /// Every `key=value` item, percent-decoded.
    pub params: Vec<(String, String)>,
}

impl Fragment {
    /// A parameter's value.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The parameters that set the state itself when written out by hand (the web
/// component writes them): they apply over the payload, or over the default state.
const STATE_PARAMS: [&str; 5] = ["scenario", "engine", "compare", "seed", "script"];

/// Reads `location.hash` (with or without its `#`). An empty fragment is no state.
pub fn parse_fragment(hash: &str) -> Result<Fragment, LinkError> {
    let mut fragment = Fragment::default();
    for item in items(hash)? {
        match read_item(item)? {
            Item::Param(k, v) => fragment.params.push((k, v)),
            Item::State(payload) => {
                if fragment.state.is_some() {
                    return Err(LinkError::Malformed("two states in one link".into()));
                }
                fragment.state = Some(LinkState::decode(payload)?);
            }
        }
    }
    let plain = fragment
        .params
        .iter()
        .any(|(k, _)| STATE_PARAMS.contains(&k.as_str()));
    if plain {
        let mut state = fragment.state.take().unwrap_or_default();
        apply_state_params(&mut state, &fragment.params)?;
        fragment.state = Some(state);
    }
    Ok(fragment)
}

/// How often the address bar takes a new moment when nothing but the clock moved,
/// wall ms. Each address change is a same-document navigation the browser records
/// (its session history, the address bar, observers such as DevTools): about 15 ms
/// of the browser's CPU each, taken from the page's core on a 2-core machine.
pub const MOMENT_EVERY_MS: f64 = 10_000.0;

/// Whether the address bar, showing `shown` for `shown_ms`, should take `next`:
/// at once when the run's inputs or the page's parameters changed (a statement, a
/// setting, a pause, the panels) or the clock is stopped (a step or a seek moved
/// it), but when only the running clock moved, once [`MOMENT_EVERY_MS`] has
/// passed: told by the two states' run keys and parameters, not by reading the
/// states. A fragment without a run key is taken when it differs.
pub fn address_due(shown: &Address, next: &Address, shown_ms: f64) -> bool {
    if shown.fragment == next.fragment {
        return false;
    }
    // The fragment's items but its state, as written (the page's parameters).
    let params = |f: &str| {
        f.trim_start_matches('#')
            .split('&')
            .filter(|i| !is_state_item(i))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    match (shown.run, next.run) {
        (Some(a), Some(b)) if a == b && params(&shown.fragment) == params(&next.fragment) => {
            shown_ms >= MOMENT_EVERY_MS
        }
        _ => true,
    }
}

/// A fragment the address bar shows or may take, with its state's
/// [`LinkState::run_key`] (`None`: paused, or no state read).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Address {
    /// The fragment, without its `#`.
    pub fragment: String,
    /// Its state's run apart from its moment.
    pub run: Option<u64>,
}

/// The `key=value` parameters of a fragment, its state (`v1.…`) skipped unread:
/// what a part of the page that only needs the parameters reads every second.
pub fn fragment_params(hash: &str) -> Result<Vec<(String, String)>, LinkError> {
    let mut params = Vec::new();
    for item in items(hash)? {
        if let Item::Param(k, v) = read_item(item)? {
            params.push((k, v));
        }
    }
    Ok(params)
}

/// A fragment's `&`-separated items (its `#` and empty items dropped), once its
/// length is checked.
fn items(hash: &str) -> Result<impl Iterator<Item = &str>, LinkError> {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    if hash.len() > MAX_FRAGMENT {
        return Err(LinkError::TooLong(hash.len()));
    }
    Ok(hash.split('&').filter(|i| !i.is_empty()))
}

/// One item of a fragment: its state's payload (`v1.…`, not read yet) or a
/// `key=value` parameter, percent-decoded.
enum Item<'a> {
    State(&'a str),
    Param(String, String),
}

/// Reads one item of a fragment ([`Item`]); an item that is neither is refused.
fn read_item(item: &str) -> Result<Item<'_>, LinkError> {
    if is_state_item(item) {
        return Ok(Item::State(item));
    }
    match item.split_once('=') {
        Some((k, v)) => Ok(Item::Param(percent_decode(k)?, percent_decode(v)?)),
        None => Err(LinkError::Malformed(format!(
            "'{}' is neither a state (v1.…) nor key=value",
            shorten(item)
        ))),
    }
}

/// What the page says when its fragment cannot be read.
pub fn unreadable(e: &LinkError) -> String {
    format!("{e} The default scenario opened instead.")
}

/// What the page says when a link reads but its state cannot be opened (a scenario
/// or engine this page does not have, settings it refuses).
pub fn unopenable(e: &str) -> String {
    format!("This link could not be opened: {e}. The default scenario opened instead.")
}

fn apply_state_params(state: &mut LinkState, params: &[(String, String)]) -> Result<(), LinkError> {
    for (k, v) in params {
        match k.as_str() {
            "scenario" => state.scenario = v.clone(),
            "engine" => state.engine = v.clone(),
            "compare" => state.compare = (!v.is_empty()).then(|| v.clone()),
            "seed" => {
                let seed = v
                    .parse()
                    .map_err(|_| LinkError::Invalid(format!("seed={v} (a whole number)")))?;
                state.knobs.seed = Some(seed);
            }
            "script" => state.knobs.script = Some(parse_flag(k, v)?),
            _ => {}
        }
    }
    Ok(())
}

/// `1`/`0` (and `true`/`false`) as a flag.
pub fn parse_flag(key: &str, v: &str) -> Result<bool, LinkError> {
    match v {
        "1" | "true" | "" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(LinkError::Invalid(format!("{key}={v} (use 1 or 0)"))),
    }
}

/// The fragment for `state` with `params` after it (without the `#`).
pub fn to_fragment(state: &LinkState, params: &[(String, String)]) -> String {
    with_params(state.encode(), params)
}

/// The fragment for an encoded state ([`LinkState::encode`]) with `params` after it.
pub fn with_params(encoded: String, params: &[(String, String)]) -> String {
    let mut out = encoded;
    for (k, v) in params {
        out.push('&');
        out.push_str(&percent_encode(k));
        out.push('=');
        out.push_str(&percent_encode(v));
    }
    out
}

/// `%2C` and friends back to bytes; the text must be UTF-8.
fn percent_decode(s: &str) -> Result<String, LinkError> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = s
                    .get(i + 1..i + 3)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| LinkError::Damaged(format!("bad escape in '{}'", shorten(s))))?;
                out.push(hex);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| LinkError::Damaged(format!("'{}' is not UTF-8", shorten(s))))
}

/// Escapes what would end a parameter or the fragment.
fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~,:/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The first 40 characters of `s`, for an error message.
fn shorten(s: &str) -> String {
    let mut t: String = s.chars().take(40).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

#[cfg(test)]
mod tests;
