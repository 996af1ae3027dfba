//! The embed player's postMessage API (`model::embed::parse_command`): any JSON a
//! parent page posts is a command or an error the player logs once, never a panic;
//! and the error-code reader the player reports finished statements with.
#![no_main]

use ddlscope_app::model::embed::{error_code, parse_command, Command};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(json) = std::str::from_utf8(data) else {
        return;
    };
    match parse_command(json) {
        Ok(Command::Seek(t)) => assert!(t.as_secs() <= 3600),
        Ok(Command::Speed(x)) => assert!((0.01..=1000.0).contains(&x)),
        Ok(Command::Run { sql, .. }) => assert!(!sql.trim().is_empty()),
        Ok(_) => {}
        Err(e) => assert!(!e.is_empty()),
    }
    let _ = error_code(json);
});
