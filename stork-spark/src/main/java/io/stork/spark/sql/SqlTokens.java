package io.stork.spark.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tokens of a statement, as much of Spark's lexical rules as Stork's commands need: words, back-quoted
 * identifiers ({@code `stork://b/t`}, a doubled back quote inside), string literals ('…' or "…", with a
 * backslash or doubled-quote escape), numbers and single-character symbols; comments and a final
 * {@code ;} are dropped.
 */
final class SqlTokens {

    enum Kind { WORD, QUOTED, STRING, NUMBER, SYMBOL }

    record Token(Kind kind, String text) {

        boolean is(String keyword) {
            return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
        }

        boolean isSymbol(char c) {
            return kind == Kind.SYMBOL && text.length() == 1 && text.charAt(0) == c;
        }

        @Override
        public String toString() {
            return switch (kind) {
                case QUOTED -> "`" + text + "`";
                case STRING -> "'" + text + "'";
                default -> text;
            };
        }
    }

    private final List<Token> tokens;
    private int next;

    private SqlTokens(List<Token> tokens) {
        this.tokens = tokens;
    }

    /** The statement's tokens; an unterminated quote or comment fails with one line. */
    static SqlTokens of(String sql) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated comment in: " + sql);
                }
                i = end + 2;
            } else if (c == '`' || c == '\'' || c == '"') {
                StringBuilder text = new StringBuilder();
                int j = i + 1;
                boolean closed = false;
                while (j < n) {
                    char d = sql.charAt(j);
                    if (d == '\\' && c != '`' && j + 1 < n) {
                        text.append(sql.charAt(j + 1));
                        j += 2;
                    } else if (d == c && j + 1 < n && sql.charAt(j + 1) == c) {
                        text.append(c);
                        j += 2;
                    } else if (d == c) {
                        closed = true;
                        j++;
                        break;
                    } else {
                        text.append(d);
                        j++;
                    }
                }
                if (!closed) {
                    throw new IllegalArgumentException("unterminated " + (c == '`' ? "back-quoted name" : "string")
                            + " in: " + sql);
                }
                out.add(new Token(c == '`' ? Kind.QUOTED : Kind.STRING, text.toString()));
                i = j;
            } else if (Character.isDigit(c) || c == '-' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                int j = i + 1;
                while (j < n && (Character.isDigit(sql.charAt(j)) || sql.charAt(j) == '.')) {
                    j++;
                }
                out.add(new Token(Kind.NUMBER, sql.substring(i, j)));
                i = j;
            } else if (Character.isLetter(c) || c == '_') {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
                    j++;
                }
                out.add(new Token(Kind.WORD, sql.substring(i, j)));
                i = j;
            } else {
                out.add(new Token(Kind.SYMBOL, String.valueOf(c)));
                i++;
            }
        }
        while (!out.isEmpty() && out.get(out.size() - 1).isSymbol(';')) {
            out.remove(out.size() - 1);
        }
        return new SqlTokens(out);
    }

    /** The next token, without taking it; null at the end. */
    Token peek() {
        return peek(0);
    }

    Token peek(int ahead) {
        return next + ahead < tokens.size() ? tokens.get(next + ahead) : null;
    }

    boolean atEnd() {
        return next >= tokens.size();
    }

    Token take() {
        return tokens.get(next++);
    }

    /** Takes the keyword if it is next. */
    boolean accept(String keyword) {
        if (peek() != null && peek().is(keyword)) {
            next++;
            return true;
        }
        return false;
    }

    /** Takes the keyword, or fails naming what {@code command} expected and what it found. */
    void expect(String command, String keyword) {
        if (!accept(keyword)) {
            throw new IllegalArgumentException(command + ": expected " + keyword.toUpperCase(Locale.ROOT) + " "
                    + where());
        }
    }

    /** "at the end" or "but found 'x'", for an error. */
    String where() {
        return atEnd() ? "at the end of the statement" : "but found '" + peek() + "'";
    }
}
