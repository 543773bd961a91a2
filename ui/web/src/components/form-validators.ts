// The schema forms' validators, one per language: the form's own checks speak the console's language
// (ajv-i18n's texts for ajv's errors). Made on first use and kept, so a form opened again does not build
// (and compile its schema in) a new one.
import validator, { customizeValidator } from '@rjsf/validator-ajv8';
import type { ValidatorType } from '@rjsf/utils';
import localizeRu from 'ajv-i18n/localize/ru';

export interface FormValidators {
  of(language: string): ValidatorType;
}

export function formValidators(): FormValidators {
  const made = new Map<string, ValidatorType>();
  return {
    of(language) {
      let found = made.get(language);
      if (!found) {
        found = language === 'ru' ? customizeValidator({}, localizeRu) : validator;
        made.set(language, found);
      }
      return found;
    },
  };
}
