//! The server settings the toolbar changes on top of a scenario, and the parsing of
//! the names the scenario files use for them (`"xfs"`, `"oltp_insert"`).

use ddlscope_engine::{ByteSize, DeviceKind, FileSystemKind, Scenario, WorkloadKind};
use serde::de::value::{Error as DeError, StrDeserializer};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A value named as the scenario files name it (`"xfs"`, `"oltp_insert"`).
pub fn parse_named<T: DeserializeOwned>(s: &str) -> Option<T> {
    T::deserialize(StrDeserializer::<DeError>::new(s)).ok()
}

/// The server settings the toolbar can change on top of a scenario. `None` keeps the
/// scenario's own value. A link carries them (`model::link`): absent fields are
/// `None`, so older links keep reading as fields are added.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Knobs {
    /// `innodb_buffer_pool_size`, MiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool_mib: Option<u64>,
    /// `innodb_buffer_pool_instances`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instances: Option<u16>,
    /// `innodb_adaptive_hash_index`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ahi: Option<bool>,
    /// The file system under the datadir.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_system: Option<FileSystemKind>,
    /// The storage device.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device: Option<DeviceKind>,
    /// The sysbench script the clients run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workload: Option<WorkloadKind>,
    /// Client threads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<u32>,
    /// The random seed of the workload (the scenario's `seed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Whether the scenario's own timed statements run (`Some(true)`), or the user is
    /// the script (the sandbox: the default on the main page).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub script: Option<bool>,
}

impl Knobs {
    /// Applies the settings to `scenario`.
    pub fn apply(&self, scenario: &mut Scenario) {
        if let Some(mib) = self.pool_mib {
            // A link may carry any number: saturate, so the scenario's check refuses
            // it instead of a wrapped size running.
            scenario.buffer_pool.size = ByteSize(mib.saturating_mul(1 << 20));
        }
        if let Some(n) = self.instances {
            scenario.buffer_pool.instances = n;
        }
        if let Some(on) = self.ahi {
            scenario.innodb.adaptive_hash_index = on;
        }
        if let Some(fs) = self.file_system {
            scenario.file_system.kind = fs;
        }
        if let Some(d) = self.device {
            scenario.device.kind = d;
        }
        if let Some(w) = self.workload {
            scenario.workload.kind = w;
        }
        if let Some(n) = self.threads {
            scenario.workload.threads = n;
        }
        if let Some(seed) = self.seed {
            scenario.seed = seed;
        }
    }

    /// Whether nothing is changed from the scenario (a link leaves them out).
    pub fn is_default(&self) -> bool {
        *self == Knobs::default()
    }

    /// What the page says when a change of settings (or scenario, or engine) cannot
    /// run: the engine's reason, and that nothing changed.
    pub fn refused(error: &str) -> String {
        format!("Not changed: {error}. The simulation goes on as it was.")
    }

    /// Whether the scenario's own script runs.
    pub fn runs_script(&self) -> bool {
        self.script == Some(true)
    }
}
