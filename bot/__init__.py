"""Study Tutor: a study companion for the Google Cloud Professional ML Engineer exam."""
