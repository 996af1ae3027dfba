//! System variables: `SET [SESSION | GLOBAL]` with MySQL's checks (1193 unknown, 1229
//! and 1238 scope, 1231/1232 values), their values as `SELECT @@x` and SHOW VARIABLES
//! read them, and SELECT of expressions without a table (`SELECT 1`, `SLEEP(n)`).

use super::{SessionVars, VARIABLES};
use crate::resultset::ResultSet;
use crate::sim::Sim;
use crate::sql::{SetValue, SqlError, VarScope};

/// 1.5 → "1.5", 2000 → "2".
pub(in crate::sim) fn fmt_secs_ms(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_owned()
    }
}

impl Sim {
    /// The variables a `SET` changes: session `id`'s, or (SET GLOBAL) the defaults new
    /// sessions start with.
    fn vars_in_scope(&mut self, id: u32, session_scope: bool) -> &mut SessionVars {
        if session_scope {
            &mut self.sql.sessions.get_mut(&id).expect("session").vars
        } else {
            &mut self.sql.global_vars
        }
    }

    pub(in crate::sim) fn set_variable(
        &mut self,
        id: u32,
        scope: VarScope,
        name: &str,
        value: &SetValue,
    ) -> Result<(), SqlError> {
        let text = match value {
            SetValue::Int(i) => i.to_string(),
            SetValue::Str(s) => s.clone(),
            SetValue::Bool(b) => if *b { "ON" } else { "OFF" }.to_owned(),
            SetValue::Default => "DEFAULT".to_owned(),
        };
        let as_bool = || match value {
            SetValue::Bool(b) => Ok(*b),
            SetValue::Int(0) => Ok(false),
            SetValue::Int(1) => Ok(true),
            SetValue::Str(s) if s.eq_ignore_ascii_case("on") => Ok(true),
            SetValue::Str(s) if s.eq_ignore_ascii_case("off") => Ok(false),
            _ => Err(SqlError::wrong_value_for_var(name, &text)),
        };
        let as_int = |min: i128, max: i128, default: u64| match value {
            SetValue::Int(i) => Ok((*i).clamp(min, max) as u64),
            SetValue::Default => Ok(default),
            _ => Err(SqlError::wrong_type_for_var(name)),
        };
        let session_scope = scope == VarScope::Session;
        match name {
            "autocommit" => {
                let on = if *value == SetValue::Default {
                    true
                } else {
                    as_bool()?
                };
                if session_scope {
                    let had = self.sql.sessions[&id].vars.autocommit;
                    self.sql
                        .sessions
                        .get_mut(&id)
                        .expect("session")
                        .vars
                        .autocommit = on;
                    // SET autocommit=1 commits an open transaction.
                    if on && !had && self.sql.sessions[&id].trx.is_some() {
                        self.commit_trx(id);
                    }
                } else {
                    self.sql.global_vars.autocommit = on;
                }
            }
            "lock_wait_timeout" => {
                let min = i128::from(self.profile.sql.lock_wait_timeout_min_s);
                let v = as_int(min, 31_536_000, self.profile.sql.lock_wait_timeout_s)?;
                self.vars_in_scope(id, session_scope).lock_wait_timeout_s = v;
            }
            "innodb_lock_wait_timeout" => {
                let v = as_int(
                    i128::from(self.profile.sql.lock_wait_timeout_min_s),
                    1_073_741_824,
                    self.profile.sql.innodb_lock_wait_timeout_s,
                )?;
                self.vars_in_scope(id, session_scope)
                    .innodb_lock_wait_timeout_s = v;
            }
            "innodb_adaptive_hash_index" => {
                if session_scope {
                    return Err(SqlError::global_variable(name));
                }
                let on = as_bool()?;
                if self.scenario.innodb.adaptive_hash_index && !on {
                    // btr_search_disable(): every block's entries go
                    // (buf_pool_clear_hash_index()) and the hash is emptied.
                    // Simplification: its walk of the pool, under the AHI latches
                    // (which this simulator does not model as latches), takes no time.
                    self.pool.ahi_clear_all();
                }
                self.scenario.innodb.adaptive_hash_index = on;
            }
            "max_write_lock_count" => {
                if session_scope {
                    return Err(SqlError::global_variable(name));
                }
                self.sql.mdl.max_write_lock_count = match value {
                    SetValue::Default => u64::MAX,
                    _ => as_int(1, i128::from(u64::MAX), u64::MAX)?,
                };
            }
            "innodb_lru_scan_depth" => {
                if session_scope {
                    return Err(SqlError::global_variable(name));
                }
                self.scenario.buffer_pool.lru_scan_depth =
                    as_int(100, i128::from(u32::MAX), 1024)? as u32;
            }
            "innodb_old_blocks_time" => {
                if session_scope {
                    return Err(SqlError::global_variable(name));
                }
                self.scenario.buffer_pool.old_blocks_time_ms =
                    as_int(0, i128::from(u32::MAX), 1000)? as u32;
            }
            n if VARIABLES.iter().any(|(v, _)| *v == n) => {
                return Err(SqlError::read_only_variable(n));
            }
            _ => return Err(SqlError::unknown_variable(name)),
        }
        Ok(())
    }

    pub(in crate::sim) fn variable_value(
        &self,
        id: u32,
        scope: VarScope,
        name: &str,
    ) -> Option<String> {
        let vars = if scope == VarScope::Session {
            self.sql
                .sessions
                .get(&id)
                .map_or(&self.sql.global_vars, |s| &s.vars)
        } else {
            &self.sql.global_vars
        };
        let onoff = |b: bool| if b { "ON" } else { "OFF" }.to_owned();
        let bp = &self.scenario.buffer_pool;
        Some(match name {
            "autocommit" => onoff(vars.autocommit),
            "lock_wait_timeout" => vars.lock_wait_timeout_s.to_string(),
            "innodb_lock_wait_timeout" => vars.innodb_lock_wait_timeout_s.to_string(),
            "innodb_adaptive_hash_index" => onoff(self.scenario.innodb.adaptive_hash_index),
            "innodb_autoinc_lock_mode" => self.autoinc_lock_mode().to_string(),
            "max_write_lock_count" => self.sql.mdl.max_write_lock_count.to_string(),
            "innodb_buffer_pool_size" => bp.size.bytes().to_string(),
            "innodb_buffer_pool_instances" => bp.instances.to_string(),
            "innodb_lru_scan_depth" => bp.lru_scan_depth.to_string(),
            "innodb_old_blocks_pct" => bp.old_blocks_pct.to_string(),
            "innodb_old_blocks_time" => bp.old_blocks_time_ms.to_string(),
            "innodb_page_size" => crate::units::PAGE_SIZE.to_string(),
            "innodb_rollback_on_timeout" => "OFF".into(),
            "transaction_isolation" => "REPEATABLE-READ".into(),
            "version" => self.profile.title.clone(),
            _ => return None,
        })
    }

    pub(in crate::sim) fn select_expressions(
        &self,
        id: u32,
        items: &[String],
    ) -> Result<ResultSet, SqlError> {
        let cols: Vec<&str> = items.iter().map(String::as_str).collect();
        let mut r = ResultSet::new(&cols, &[]);
        let mut row = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let t = item.trim();
            let lower = t.to_ascii_lowercase();
            let value = if let Some(v) = lower.strip_prefix("@@") {
                let (scope, name) = if let Some(n) = v.strip_prefix("global.") {
                    (VarScope::Global, n)
                } else if let Some(n) = v.strip_prefix("session.") {
                    (VarScope::Session, n)
                } else {
                    (VarScope::Session, v)
                };
                let val = self
                    .variable_value(id, scope, name)
                    .ok_or_else(|| SqlError::unknown_variable(name))?;
                // The client shows ON/OFF switches as 1/0 through @@.
                Some(match val.as_str() {
                    "ON" => "1".to_owned(),
                    "OFF" => "0".to_owned(),
                    _ => val,
                })
            } else if lower == "connection_id()" {
                Some(id.to_string())
            } else if lower == "null" {
                None
            } else if t.parse::<i64>().is_ok() {
                Some(t.to_owned())
            } else if (t.starts_with('\'') && t.ends_with('\'') && t.len() >= 2)
                || (t.starts_with('"') && t.ends_with('"') && t.len() >= 2)
            {
                r.columns[i] = t[1..t.len() - 1].to_owned();
                Some(t[1..t.len() - 1].to_owned())
            } else {
                return Err(SqlError::not_modelled(&format!("SELECT {t}")));
            };
            if value.as_deref().is_some_and(|v| v.parse::<i64>().is_ok()) {
                r.numeric[i] = true;
            }
            row.push(value);
        }
        r.push(row);
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::fmt_secs_ms;

    #[test]
    fn sleep_column_is_named_as_written() {
        assert_eq!(fmt_secs_ms(2000), "2");
        assert_eq!(fmt_secs_ms(1500), "1.5");
    }
}
