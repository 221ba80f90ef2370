/**
 * The zod form of the text rules of text.ts. Kept out of the kit's index, which the resources'
 * public declarations reach, so that zod's types stay out of the package's public types.
 */
import { z } from "zod";
import { controlCharacterProblem } from "./text";

/** A string without control characters (see controlCharacterProblem). */
export function withoutControlCharacters<S extends z.ZodType<string>>(schema: S): S {
  return schema.superRefine((text, ctx) => {
    const problem = controlCharacterProblem(text);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }) as unknown as S;
}
