//! Quoting for bash: any argument, as one word that bash reads back byte for byte.
//!
//! In: an argument. Out: the argument as it is when it needs no quotes, in single quotes
//! otherwise, and in bash's `$'...'` when it holds a control character (a newline), so
//! that every quoted word stays on one line of a script.

/// Characters that bash reads as themselves anywhere in a word.
fn is_plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_-+=/.,:@%".contains(c)
}

/// `arg` as one bash word.
pub fn quote(arg: &str) -> String {
    if !arg.is_empty() && arg.chars().all(is_plain) {
        return arg.to_string();
    }
    if !arg.chars().any(char::is_control) {
        return format!("'{}'", arg.replace('\'', r"'\''"));
    }
    let mut quoted = String::from("$'");
    for c in arg.chars() {
        match c {
            '\\' => quoted.push_str(r"\\"),
            '\'' => quoted.push_str(r"\'"),
            '\n' => quoted.push_str(r"\n"),
            '\t' => quoted.push_str(r"\t"),
            // Bytes, not \u: bash decodes \u by the locale, bytes are bytes in any.
            c if c.is_control() => {
                let mut utf8 = [0; 4];
                for byte in c.encode_utf8(&mut utf8).bytes() {
                    quoted.push_str(&format!(r"\x{byte:02x}"));
                }
            }
            c => quoted.push(c),
        }
    }
    quoted.push('\'');
    quoted
}

/// `args` as bash words separated by spaces.
pub fn join(args: &[String]) -> String {
    args.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_words_stay_as_they_are() {
        assert_eq!(quote("--rates"), "--rates");
        assert_eq!(quote("0.001,0.01"), "0.001,0.01");
        assert_eq!(
            quote("/w/sweep.parts/slurm-%A_%a.out"),
            "/w/sweep.parts/slurm-%A_%a.out"
        );
        assert_eq!(
            quote("--vary=message-bytes=4,16"),
            "--vary=message-bytes=4,16"
        );
    }

    #[test]
    fn words_bash_would_change_are_single_quoted() {
        assert_eq!(quote(""), "''");
        assert_eq!(quote("my sweep"), "'my sweep'");
        assert_eq!(
            quote("message-bytes=4,64@0.1;16"),
            "'message-bytes=4,64@0.1;16'"
        );
        assert_eq!(quote("$HOME/*"), "'$HOME/*'");
        assert_eq!(quote("~/x"), "'~/x'");
        assert_eq!(quote("{0..3}"), "'{0..3}'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(r#"say "hi""#), r#"'say "hi"'"#);
    }

    #[test]
    fn control_characters_are_escaped_on_one_line() {
        assert_eq!(quote("a\nb"), r"$'a\nb'");
        assert_eq!(quote("tab\there"), r"$'tab\there'");
        assert_eq!(quote("it's\n\\"), r"$'it\'s\n\\'");
        assert_eq!(quote("bell\u{7}"), r"$'bell\x07'");
        assert_eq!(quote("next\u{85}line"), r"$'next\xc2\x85line'");
    }

    #[test]
    fn bash_reads_every_quoted_word_back() {
        let args = [
            "plain",
            "",
            "two words",
            "it's",
            r#"a "quoted" $word `and` \back"#,
            "line\nbreak\ttab\u{1b}[0m\u{85}",
            "ünïcödé ✓",
            "*?[]{}~!#&|;<>()",
        ];
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let script = format!("printf '%s\\0' {}", join(&args));
        let output = std::process::Command::new("bash")
            .args(["-c", &script])
            .output()
            .expect("bash runs");
        assert!(output.status.success());
        let read: Vec<String> = output
            .stdout
            .strip_suffix(b"\0")
            .expect("printf ends every word with a NUL")
            .split(|b| *b == 0)
            .map(|w| String::from_utf8(w.to_vec()).unwrap())
            .collect();
        assert_eq!(read, args);
    }
}
