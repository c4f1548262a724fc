"""Where the bytes of a host come from: files under a root and saved command outputs (bounded, confined,
checked as text), a supportconfig's report files, and the listings other tools print about block devices."""
