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
/// scenario's own value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Knobs {
    /// `innodb_buffer_pool_size`, MiB.
    pub pool_mib: Option<u64>,
    /// `innodb_buffer_pool_instances`.
    pub instances: Option<u16>,
    /// `innodb_adaptive_hash_index`.
    pub ahi: Option<bool>,
    /// The file system under the datadir.
    pub file_system: Option<FileSystemKind>,
    /// The storage device.
    pub device: Option<DeviceKind>,
    /// The sysbench script the clients run.
    pub workload: Option<WorkloadKind>,
    /// Client threads.
    pub threads: Option<u32>,
}

impl Knobs {
    /// Applies the settings to `scenario`.
    pub fn apply(&self, scenario: &mut Scenario) {
        if let Some(mib) = self.pool_mib {
            scenario.buffer_pool.size = ByteSize(mib << 20);
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
    }
}
