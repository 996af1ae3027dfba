//! The SQL front end the console and `ddlscope run --at` use: any text gives parsed
//! statements or a MySQL error (1064, 1065, 1235, name errors), never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(sql) = std::str::from_utf8(data) else {
        return;
    };
    match ddlscope_engine::parse_sql(sql) {
        Ok(parsed) => assert!(!parsed.is_empty(), "an Ok parse has statements"),
        Err(e) => {
            let text = e.to_string();
            assert!(text.starts_with("ERROR "), "not a MySQL error line: {text}");
        }
    }
});
