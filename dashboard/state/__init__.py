"""What the pages read and write: cached store reads, URL and session state, uploads, jobs, who may write."""
