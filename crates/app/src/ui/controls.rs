//! The toolbar's controls: play/pause, step, the speed of virtual time, the timeline
//! scrubber with the virtual clock, and the server settings. (The scenario, the
//! engine profile and compare mode are on the scenario card, `ui::scenario_card`.)
//!
//! Speed is virtual seconds per wall second. Slow motion matters here: a 5.7 DROP
//! TABLE scans the four LRU lists in about 130 ms of virtual time, so at 0.05× the
//! cursor takes a visible 2.6 s to cross the pool. When the engine cannot keep up with
//! the chosen speed, the scenario card says so.

use crate::model::format;
use crate::model::knobs::{parse_named, Knobs};
use crate::model::timeline_marks::Mark;
use crate::ui::scrubber_marks::ScrubberMarks;
use ddlscope_engine::{DeviceKind, Tick, WorkloadKind};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The speeds offered, virtual seconds per wall second: slow motion for a scan that
/// takes 130 ms, up to 1000× for a 150-second stall.
pub const SPEEDS: [f64; 11] = [
    0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 100.0, 300.0, 1000.0,
];

/// Buffer-pool sizes offered, MiB.
const POOL_MIB: [u64; 9] = [128, 512, 1024, 4096, 8192, 16384, 32768, 65536, 131072];
/// Buffer-pool instance counts offered.
const INSTANCES: [u16; 7] = [1, 2, 4, 8, 16, 32, 64];
/// Client thread counts offered.
const THREADS: [u32; 9] = [1, 4, 8, 16, 32, 64, 128, 256, 512];
/// File systems, as the scenario files name them.
const FILE_SYSTEMS: [(&str, &str); 3] = [("ext3", "ext3"), ("ext4", "ext4"), ("xfs", "XFS")];
/// Devices, as the scenario files name them.
const DEVICES: [(&str, &str); 3] = [("hdd", "HDD"), ("sata_ssd", "SATA SSD"), ("nvme", "NVMe")];
/// Workloads, as the scenario files name them.
const WORKLOADS: [(&str, &str); 6] = [
    ("oltp_read_write", "oltp_read_write"),
    ("oltp_read_only", "oltp_read_only"),
    ("oltp_write_only", "oltp_write_only"),
    ("oltp_point_select", "oltp_point_select"),
    ("oltp_update_index", "oltp_update_index"),
    ("oltp_insert", "oltp_insert"),
];

/// A pool size for people: `512 MiB`, `16 GiB`.
fn mib_text(mib: u64) -> String {
    if mib >= 1024 {
        format!("{} GiB", mib / 1024)
    } else {
        format!("{mib} MiB")
    }
}

/// An engine profile as the select offers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileChoice {
    /// `mysql-5.7`.
    pub name: String,
    /// `MySQL 5.7`.
    pub title: String,
}

/// A built-in scenario as the select offers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioChoice {
    /// `drop-table-demo`.
    pub name: String,
    /// `DROP TABLE on a busy server`.
    pub title: String,
    /// What it shows.
    pub description: String,
    /// The profile it names (selected with it).
    pub profile: String,
    /// Its script's statements, `(virtual seconds, SQL)`, offered in the console.
    pub script: Vec<(u64, String)>,
    /// `innodb_buffer_pool_size`, bytes.
    pub pool_bytes: u64,
    /// Whether building it blocks the page noticeably (see [`crate::model::runner::is_heavy`]).
    pub heavy: bool,
}

/// Properties of [`Controls`].
#[derive(Properties, PartialEq, Debug)]
pub struct ControlsProps {
    /// Whether virtual time runs.
    pub playing: bool,
    /// The chosen speed.
    pub speed: f64,
    /// The server settings changed from the scenario's.
    pub knobs: Knobs,
    /// The virtual time.
    pub now: Tick,
    /// The furthest virtual time reached (the scrubber's end).
    pub horizon: Tick,
    /// The timeline's marks (statements, lock waits, DDL phases).
    #[prop_or_default]
    pub marks: Vec<Mark>,
    /// Play or pause.
    pub on_toggle: Callback<()>,
    /// Step to the next event (`true`) or back to the previous one.
    pub on_step: Callback<bool>,
    /// Seek to a virtual time.
    pub on_seek: Callback<Tick>,
    /// A new speed.
    pub on_speed: Callback<f64>,
    /// New server settings (restarts the simulation).
    pub on_knobs: Callback<Knobs>,
}

/// A select's handler: its value, through `f`.
pub fn on_select<T: 'static>(
    cb: &Callback<T>,
    f: impl Fn(String) -> Option<T> + 'static,
) -> Callback<Event> {
    let cb = cb.clone();
    Callback::from(move |e: Event| {
        if let Some(v) = f(e.target_unchecked_into::<HtmlSelectElement>().value()) {
            cb.emit(v);
        }
    })
}

/// Play/pause, step, speed, scrubber and clock, and the server settings, as groups
/// of the toolbar (the scenario and the engine are on the scenario card).
#[function_component(Controls)]
pub fn controls(props: &ControlsProps) -> Html {
    html! {
        <>
            { transport(props) }
            { speed(props) }
            { scrubber(props) }
            { settings(props) }
        </>
    }
}

/// Play/pause, back and step.
fn transport(props: &ControlsProps) -> Html {
    let on_toggle = props.on_toggle.reform(|_: MouseEvent| ());
    let on_back = props.on_step.reform(|_: MouseEvent| false);
    let on_forward = props.on_step.reform(|_: MouseEvent| true);
    let label = if props.playing { "Pause" } else { "Play" };
    let icon = if props.playing { "❚❚" } else { "▶" };
    html! {
        <div class="group">
            <button
                data-testid="play"
                aria-pressed={if props.playing { "true" } else { "false" }}
                title={if props.playing { "Pause virtual time (Space)" } else { "Run virtual time (Space)" }}
                class={classes!("play-button", props.playing.then_some("primary"))}
                onclick={on_toggle}
            >
                <span aria-hidden="true" class="play-icon">{ icon }</span>{ label }
            </button>
            <button data-testid="back" title="Back to the previous event (←)" aria-label="Step back to the previous event" onclick={on_back}>{ "◀|" }</button>
            <button data-testid="step" title="Step to the next event (→)" aria-label="Step to the next event" onclick={on_forward}>{ "|▶" }</button>
        </div>
    }
}

/// The speed of virtual time.
fn speed(props: &ControlsProps) -> Html {
    let on_speed = on_select(&props.on_speed, |v| v.parse::<f64>().ok());
    html! {
        <div class="group">
            <label for="speed-select">{ "Speed" }</label>
            <select id="speed-select" data-testid="speed" onchange={on_speed} title="Virtual seconds per wall-clock second">
                { for SPEEDS.iter().map(|&x| html! {
                    <option value={x.to_string()} selected={x == props.speed}>{ format::speed(x) }</option>
                }) }
            </select>
        </div>
    }
}

/// The timeline scrubber, the virtual clock and the achieved speed.
fn scrubber(props: &ControlsProps) -> Html {
    let on_scrub = {
        let cb = props.on_seek.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            if let Ok(ms) = v.parse::<f64>() {
                cb.emit(Tick::from_ms(ms.max(0.0) as u64));
            }
        })
    };
    html! {
        <div class="group scrub" title="Timeline: drag back to replay the run deterministically from a checkpoint">
            <label for="scrubber">{ "Time" }</label>
            <span class="scrub-track">
            <input
                id="scrubber"
                data-testid="scrubber"
                type="range"
                min="0"
                max={props.horizon.as_ms().to_string()}
                step="any"
                value={props.now.as_ms().to_string()}
                aria-valuetext={format!("{} s of {} s", format::secs(props.now), format::secs(props.horizon))}
                oninput={on_scrub}
            />
            <ScrubberMarks marks={props.marks.clone()} horizon={props.horizon} on_seek={props.on_seek.clone()} />
            </span>
            <span data-testid="virtual-time" class="clock">
                { format!("{} s", format::secs(props.now)) }
            </span>
        </div>
    }
}

/// The server settings.
fn settings(props: &ControlsProps) -> Html {
    let knob = |set: fn(&mut Knobs, &str)| {
        let cb = props.on_knobs.clone();
        let knobs = props.knobs.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            let mut k = knobs.clone();
            set(&mut k, &v);
            cb.emit(k);
        })
    };
    let default_opt = |on: bool| html! { <option value="" selected={on}>{ "scenario's" }</option> };
    let k = &props.knobs;
    let named = |v: Option<String>, value: &str| v.as_deref() == Some(value);
    let fs_now = k.file_system.map(|x| format!("{x:?}").to_lowercase());
    let dev_now = k.device.map(|x| {
        match x {
            DeviceKind::Hdd => "hdd",
            DeviceKind::SataSsd => "sata_ssd",
            DeviceKind::Nvme => "nvme",
        }
        .to_string()
    });
    let wl_now = k.workload.and_then(|w| {
        WORKLOADS
            .iter()
            .find(|(n, _)| parse_named::<WorkloadKind>(n) == Some(w))
            .map(|(n, _)| n.to_string())
    });
    html! {
        <details class="group settings" data-testid="settings">
            <summary title="Server settings: changing one restarts the simulation">{ "Server ▾" }</summary>
            <div class="settings-grid">
                <label for="knob-pool">{ "buffer pool" }</label>
                <select id="knob-pool" data-testid="knob-pool" onchange={knob(|k, v| k.pool_mib = v.parse().ok())}>
                    { default_opt(k.pool_mib.is_none()) }
                    { for POOL_MIB.iter().map(|&m| html! { <option value={m.to_string()} selected={k.pool_mib == Some(m)}>{ mib_text(m) }</option> }) }
                </select>
                <label for="knob-instances">{ "instances" }</label>
                <select id="knob-instances" data-testid="knob-instances" onchange={knob(|k, v| k.instances = v.parse().ok())}>
                    { default_opt(k.instances.is_none()) }
                    { for INSTANCES.iter().map(|&n| html! { <option value={n.to_string()} selected={k.instances == Some(n)}>{ n }</option> }) }
                </select>
                <label for="knob-ahi">{ "adaptive hash index" }</label>
                <select id="knob-ahi" data-testid="knob-ahi" onchange={knob(|k, v| k.ahi = v.parse().ok())}>
                    { default_opt(k.ahi.is_none()) }
                    <option value="true" selected={k.ahi == Some(true)}>{ "ON" }</option>
                    <option value="false" selected={k.ahi == Some(false)}>{ "OFF" }</option>
                </select>
                <label for="knob-fs">{ "file system" }</label>
                <select id="knob-fs" data-testid="knob-fs" onchange={knob(|k, v| k.file_system = parse_named(v))}>
                    { default_opt(k.file_system.is_none()) }
                    { for FILE_SYSTEMS.iter().map(|(v, l)| html! { <option value={*v} selected={named(fs_now.clone(), v)}>{ *l }</option> }) }
                </select>
                <label for="knob-device">{ "device" }</label>
                <select id="knob-device" data-testid="knob-device" onchange={knob(|k, v| k.device = parse_named(v))}>
                    { default_opt(k.device.is_none()) }
                    { for DEVICES.iter().map(|(v, l)| html! { <option value={*v} selected={named(dev_now.clone(), v)}>{ *l }</option> }) }
                </select>
                <label for="knob-workload">{ "workload" }</label>
                <select id="knob-workload" data-testid="knob-workload" onchange={knob(|k, v| k.workload = parse_named(v))}>
                    { default_opt(k.workload.is_none()) }
                    { for WORKLOADS.iter().map(|(v, l)| html! { <option value={*v} selected={named(wl_now.clone(), v)}>{ *l }</option> }) }
                </select>
                <label for="knob-threads">{ "threads" }</label>
                <select id="knob-threads" data-testid="knob-threads" onchange={knob(|k, v| k.threads = v.parse().ok())}>
                    { default_opt(k.threads.is_none()) }
                    { for THREADS.iter().map(|&n| html! { <option value={n.to_string()} selected={k.threads == Some(n)}>{ n }</option> }) }
                </select>
            </div>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ddlscope_engine::FileSystemKind;

    #[test]
    fn settings_are_named_as_in_scenario_files() {
        assert_eq!(
            parse_named::<FileSystemKind>("xfs"),
            Some(FileSystemKind::Xfs)
        );
        assert_eq!(
            parse_named::<DeviceKind>("sata_ssd"),
            Some(DeviceKind::SataSsd)
        );
        assert_eq!(
            parse_named::<FileSystemKind>(""),
            None,
            "the scenario's own"
        );
        for (name, _) in WORKLOADS {
            assert!(parse_named::<WorkloadKind>(name).is_some(), "{name}");
        }
        for (name, _) in FILE_SYSTEMS {
            let fs = parse_named::<FileSystemKind>(name).unwrap();
            assert_eq!(format!("{fs:?}").to_lowercase(), name);
        }
        assert_eq!(mib_text(512), "512 MiB");
        assert_eq!(mib_text(131_072), "128 GiB");
        assert!(SPEEDS.contains(&0.1) && SPEEDS.contains(&1000.0));
    }
}
