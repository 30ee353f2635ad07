-- As sqlite/0011_member_languages.sql.
CREATE TABLE member_languages (
    user_id    BIGINT PRIMARY KEY,
    language   TEXT   NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
