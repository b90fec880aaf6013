/**
 * A list item's name is one item however its builder punctuated it
 * (docs/import-formats.md#item-names): the serial comma before a list's last "and" or "or" is
 * dropped; every other comma, and a name without a list, stays as written.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { itemName } from '../../src/domain/item-name.ts';

describe('itemName', () => {
  it('makes "X, Y, and Z" and "X, Y and Z" one name', () => {
    assert.equal(
      itemName('General, Disciplined, and Wildheart'),
      'General, Disciplined and Wildheart',
    );
    assert.equal(
      itemName('General, Disciplined and Wildheart'),
      'General, Disciplined and Wildheart',
    );
  });

  it('drops the serial comma of a longer list and before "or"', () => {
    assert.equal(itemName('Sword, Shield, Spear, and Bow'), 'Sword, Shield, Spear and Bow');
    assert.equal(itemName('Halberd, Shield, or Lance'), 'Halberd, Shield or Lance');
  });

  it('keeps a comma that ends no list of three, and folds white space as every name', () => {
    assert.equal(itemName('Sword, and Board'), 'Sword, and Board');
    assert.equal(
      itemName('Light Troops, Ghost Step, Cha 4" and Mob 6"'),
      'Light Troops, Ghost Step, Cha 4" and Mob 6"',
    );
    assert.equal(
      itemName('  General,  Disciplined,   and Wildheart '),
      'General, Disciplined and Wildheart',
    );
    assert.equal(itemName('Andvari Randers'), 'Andvari Randers');
  });
});
